/**
 * Whether two answers have the same bytes (REQ-2), without writing them out
 * when they plainly do: writing a long context as JSON escapes it character
 * by character, where comparing two strings is a memory compare.
 */

/** A value JSON.stringify writes as its own literal: equal such values write the same text. */
const isPlainScalar = (x: unknown): boolean => x === null || typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && x === x);

const hasToJson = (x: object): boolean => typeof (x as { toJSON?: unknown }).toJSON === 'function';

/** An object JSON.stringify writes member by member, in Object.keys order: not a class instance. */
function isPlainObject(x: object): boolean {
  const proto = Object.getPrototypeOf(x) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * True only when JSON.stringify(a) === JSON.stringify(b) is sure: the same
 * arrays and plain objects (members in the same order) down to equal strings,
 * finite numbers, booleans and nulls. False means "not sure": anything else
 * (a class instance, a toJSON, NaN, undefined, a difference) is left to the
 * caller's own comparison of the written text. A loop with its own stack,
 * not recursion: an answer may nest deeper than the call stack goes.
 */
export function surelySameJson(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y && isPlainScalar(x)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (hasToJson(x) || hasToJson(y)) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y) || !isPlainObject(x) || !isPlainObject(y)) return false;
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
