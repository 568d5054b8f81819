/**
 * Whether two answers, or two views of answers, are plainly the same data,
 * without writing them out or comparing them member by member through
 * `isDeepStrictEqual`: writing a long context as JSON escapes it character
 * by character, where comparing two strings is a memory compare.
 */

/** Strings, finite numbers, booleans and null: equal ones (Object.is: -0 is not 0) write the same JSON. */
const isPlainScalar = (x: unknown): boolean => x === null || typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x));

const hasToJson = (x: object): boolean => typeof (x as { toJSON?: unknown }).toJSON === 'function';

/**
 * True only when `a` and `b` are the same data as JSON carries it: arrays of
 * one length, and objects of one prototype (Object.prototype or none) with
 * the same members in the same order, down to Object.is-equal strings, finite
 * numbers, booleans and nulls. Then JSON.stringify writes both alike, and
 * isDeepStrictEqual holds unless they differ in what no answer on the wire
 * can hold (symbol-keyed members, members of an array besides its items).
 * False means "not sure": a difference, or anything else (a hole, undefined,
 * NaN, a class, a toJSON), and the caller compares as it would have. It goes
 * as deep as the data does: past a few dozen levels, by a loop with its own
 * stack.
 */
export function samePlainData(a: unknown, b: unknown): boolean {
  if (lastSame !== undefined && lastSame[0] === a && lastSame[1] === b) return true;
  if (!same(a, b, 0)) return false;
  lastSame = [a, b];
  return true;
}

/** Answers nest a few levels: recursion to this depth, then the loop, which goes as deep as memory does. */
const RECURSION_DEPTH = 64;

/** samePlainData by recursion, where a walk of answers spends its time; for-in reads members by the enumeration cache. */
function same(x: unknown, y: unknown, depth: number): boolean {
  switch (typeof x) {
    case 'string':
    case 'boolean':
      return x === y;
    case 'number':
      return x === y && Number.isFinite(x) && (x !== 0 || Object.is(x, y));
    case 'object':
      break;
    default:
      return false;
  }
  if (x === null) return y === null;
  if (depth > RECURSION_DEPTH) return sameByLoop(x, y);
  if (typeof y !== 'object' || y === null || hasToJson(x) || hasToJson(y)) return false;
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!same(x[i], y[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(x) as unknown;
  if (Array.isArray(y) || (proto !== Object.prototype && proto !== null) || Object.getPrototypeOf(y) !== proto) return false;
  const ky = Object.keys(y);
  let i = 0;
  // for-in gives Object.keys' order, and any enumerable member inherited as one more key, which then differs.
  for (const k in x) if (k !== ky[i++] || !same((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], depth + 1)) return false;
  return i === ky.length;
}

/** samePlainData by a loop with its own stack. */
function sameByLoop(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (isPlainScalar(x)) {
      if (!Object.is(x, y)) return false;
      continue;
    }
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || hasToJson(x) || hasToJson(y)) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      // A hole reads as undefined, which is not plain data: no need to look for one.
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
      continue;
    }
    const proto = Object.getPrototypeOf(x) as unknown;
    if (Array.isArray(y) || (proto !== Object.prototype && proto !== null) || Object.getPrototypeOf(y) !== proto) return false;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length) return false;
    for (let i = 0; i < kx.length; i++) {
      if (kx[i] !== ky[i]) return false;
      pending.push((x as Record<string, unknown>)[kx[i]!], (y as Record<string, unknown>)[ky[i]!]);
    }
  }
  return true;
}

/**
 * The last pair found the same, which is asked about again: a replay reads
 * an implementation's second answer by comparing it with its first, then its
 * determinism check compares the two. Answers are not changed once read.
 */
let lastSame: [unknown, unknown] | undefined;
