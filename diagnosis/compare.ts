/**
 * When a model's answer is the implementation's answer. "Explains" claims an
 * exact reproduction, so answers are compared member for member, and only
 * where the spec itself lets two spellings mean one answer are they read
 * alike (SPEC section 7, "How answers are compared"):
 *
 * - numbers by value: -0 and 0 are one number (NUM-5), and so are 1 and 1.0
 *   (JSON cannot tell them apart once read);
 * - an error answer by its code: the message is human-readable text of the
 *   implementation's own (ERR-1), and `problems` is optional;
 * - `warnings` as a multiset of `{code, block_id}` (the spec compares them as
 *   a set and gives no order; `message` is free text, WC-4).
 *
 * Everything else is exact: member names, string bytes, array order, and the
 * omission reasons (the model writes them in the implementation's own
 * spelling, spelling.ts).
 */
import type { Outcome } from '../protocol/types.js';
import { sameValue } from '../vocabulary/same-value.js';
import type { Answer } from './model.js';
import { isObject } from './json-object.js';
import { stringifyJson } from '../protocol/deep-json.js';

function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>, same: (name: string, x: unknown, y: unknown) => boolean): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (!Object.hasOwn(b, k) || !same(k, a[k], b[k])) return false;
  return true;
}

/** A warning without its free-text message, as one comparable key. */
function warningKey(w: unknown): string | undefined {
  if (!isObject(w)) return undefined;
  const { message, ...rest } = w;
  if (message !== undefined && typeof message !== 'string') return undefined; // not free text: compare it exactly
  return stringifyJson(
    Object.keys(rest)
      .sort()
      .map((k) => [k, rest[k]]),
  );
}

function sameWarnings(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return sameValue(a, b);
  if (a.length !== b.length) return false;
  const x = a.map(warningKey);
  const y = b.map(warningKey);
  if (x.includes(undefined) || y.includes(undefined)) return sameValue(a, b);
  x.sort();
  y.sort();
  return x.every((k, i) => k === y[i]);
}

/** Two results, member for member (warnings as a multiset). */
function sameResult(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return sameMembers(a, b, (name: string, x: unknown, y: unknown) => (name === 'warnings' ? sameWarnings(x, y) : sameValue(x, y)));
}

/** Whether the model's answer reproduces what the implementation answered. A timeout, a crash or an unreadable answer is reproduced by nothing. */
export function reproduces(answer: Answer, outcome: Outcome): boolean {
  const error = answer.error;
  if (outcome.kind === 'error') return isObject(error) && error.code === outcome.code;
  if (outcome.kind !== 'result') return false;
  return error === undefined && isObject(outcome.value) && sameResult(answer, outcome.value);
}

/** Two model answers alike, by the same reading. */
export function sameAnswer(a: Answer, b: Answer): boolean {
  const x = a.error;
  const y = b.error;
  if (x !== undefined || y !== undefined) return isObject(x) && isObject(y) && x.code === y.code;
  return sameResult(a, b);
}

/** A model's answer as an adapter would have handed it over (PROTO-2). */
export function asOutcome(answer: Answer): Outcome {
  const error = answer.error;
  if (isObject(error)) return { kind: 'error', code: error.code, message: error.message, value: answer };
  return { kind: 'result', value: answer };
}
