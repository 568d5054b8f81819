/**
 * The JSON a request is sent as, one encoder for every transport (stdio and
 * http), so a case means the same request wherever it goes (SPEC section 11,
 * "The wire").
 *
 * JSON.stringify would quietly send another request: `-0` as `0` (NUM-5 never
 * reaches the implementation) and NaN or ±Infinity as `null` (a VAL-8 case
 * would test VAL-5's null instead). Here `-0` is written `-0.0`, which JSON
 * allows and which every common parser (Python, Go, Rust, Java, JavaScript)
 * reads back as a negative zero double; a value JSON cannot carry at all makes
 * the request unsendable, with the JSON Pointer of the member, and the runner
 * skips that case on that transport instead of sending something else.
 */
import { isStackOverflow, writeJson } from '../protocol/deep-json.js';

import { plainJsonText } from './plain-json.js';

export type Encoded = { ok: true; json: string } | { ok: false; reason: string };

/** Prefix of every unsendable reason, so reports and tests can tell the skip apart. */
export const UNSENDABLE = 'cannot be sent over JSON';

export function encodeRequest(request: unknown): Encoded {
  // The common request is plain data: one walk, then the native writer (-0 written -0.0).
  const plain = plainJsonText(request);
  if (plain !== undefined) return { ok: true, json: plain };
  // Not sure (a toJSON, a class, NaN, ±Infinity, a BigInt, a string holding plainJsonText's mark, or
  // deeper than plainJsonText looks): native JSON.stringify, with a replacer that only looks; only a
  // request with -0, a value JSON cannot carry, or nested deeper than the native function goes takes
  // the slow path (which has no depth limit).
  let special = false;
  let json: string | undefined;
  try {
    json = JSON.stringify(request, (_key, value: unknown) => {
      if (typeof value === 'number' && (value === 0 ? Object.is(value, -0) : !Number.isFinite(value))) special = true;
      else if (typeof value === 'bigint') special = true;
      return typeof value === 'bigint' ? null : value;
    });
  } catch (e) {
    if (!isStackOverflow(e)) return { ok: false, reason: `${UNSENDABLE}: ${e instanceof Error ? e.message : String(e)}` };
    special = true;
  }
  if (!special && json === undefined) return { ok: false, reason: `${UNSENDABLE}: the request is ${request === undefined ? 'undefined' : typeof request}` };
  if (!special) return { ok: true, json: json! };
  const problem = { at: undefined as string | undefined };
  let text: string | undefined;
  try {
    text = write(request, problem);
  } catch (e) {
    return { ok: false, reason: `${UNSENDABLE}: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (text === undefined) return { ok: false, reason: `${UNSENDABLE}: the request is ${request === undefined ? 'undefined' : typeof request}` };
  return problem.at === undefined ? { ok: true, json: text } : { ok: false, reason: `${UNSENDABLE}: ${problem.at}` };
}

/**
 * JSON.stringify's rules (undefined, functions and symbols dropped from objects
 * and null in arrays, toJSON honoured), except for -0 and the values JSON
 * cannot carry, whose first pointer is recorded in `problem`; at any depth.
 */
function write(value: unknown, problem: { at: string | undefined }): string | undefined {
  return writeJson(value, {
    scalar: (v, at) => {
      if (typeof v === 'bigint') {
        problem.at ??= `a BigInt at ${at() || '/'}`;
        return 'null';
      }
      if (Object.is(v, -0)) return '-0.0';
      if (Number.isFinite(v)) return JSON.stringify(v);
      problem.at ??= `${String(v)} at ${at() || '/'} (VAL-8: JSON has no NaN or Infinity)`;
      return 'null';
    },
  });
}
