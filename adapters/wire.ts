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

import { writesAsIs } from './plain-json.js';

export type Encoded = { ok: true; json: string } | { ok: false; reason: string };

/** Prefix of every unsendable reason, so reports and tests can tell the skip apart. */
export const UNSENDABLE = 'cannot be sent over JSON';

export function encodeRequest(request: unknown): Encoded {
  // The common request is plain data with neither -0 nor a non-finite number: written natively.
  if (writesAsIs(request)) {
    const json = JSON.stringify(request);
    if (json !== undefined) return { ok: true, json };
  }
  // Not sure (a toJSON, a class, or deeper than writesAsIs looks): native JSON.stringify, with a
  // replacer that only looks; only a request with -0 or a value JSON cannot carry takes the slow path.
  let special = false;
  let json: string | undefined;
  try {
    json = JSON.stringify(request, (_key, value: unknown) => {
      if (typeof value === 'number' && (value === 0 ? Object.is(value, -0) : !Number.isFinite(value))) special = true;
      else if (typeof value === 'bigint') special = true;
      return typeof value === 'bigint' ? null : value;
    });
  } catch (e) {
    return { ok: false, reason: `${UNSENDABLE}: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (json === undefined) return { ok: false, reason: `${UNSENDABLE}: the request is ${request === undefined ? 'undefined' : typeof request}` };
  if (!special) return { ok: true, json };
  const problem = { at: undefined as string | undefined };
  const text = write(request, '', problem);
  return problem.at === undefined ? { ok: true, json: text } : { ok: false, reason: `${UNSENDABLE}: ${problem.at}` };
}

/** JSON Pointer escaping of one reference token (RFC 6901). */
const token = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * JSON.stringify's rules (undefined, functions and symbols dropped from objects
 * and null in arrays, toJSON honoured), except for -0 and the values JSON
 * cannot carry, whose first pointer is recorded in `problem`.
 */
function write(value: unknown, at: string, problem: { at: string | undefined }, key = ''): string {
  let v = value;
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  switch (typeof v) {
    case 'number':
      if (Object.is(v, -0)) return '-0.0';
      if (Number.isFinite(v)) return JSON.stringify(v);
      problem.at ??= `${String(v)} at ${at || '/'} (VAL-8: JSON has no NaN or Infinity)`;
      return 'null';
    case 'bigint':
      problem.at ??= `a BigInt at ${at || '/'}`;
      return 'null';
    case 'string':
    case 'boolean':
      return JSON.stringify(v);
    case 'object':
      if (v === null) return 'null';
      if (Array.isArray(v)) {
        const items: string[] = [];
        for (let i = 0; i < v.length; i++) {
          const item: unknown = v[i];
          items.push(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : write(item, `${at}/${i}`, problem, String(i)));
        }
        return `[${items.join(',')}]`;
      } else {
        const members: string[] = [];
        for (const k of Object.keys(v)) {
          const member: unknown = (v as Record<string, unknown>)[k];
          if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
          members.push(`${JSON.stringify(k)}:${write(member, `${at}/${token(k)}`, problem, k)}`);
        }
        return `{${members.join(',')}}`;
      }
    default:
      return 'null';
  }
}
