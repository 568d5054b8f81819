/**
 * Whether JSON.stringify alone writes a value as the wire must (wire.ts):
 * no -0, NaN, ±Infinity or BigInt anywhere in it, and nothing but arrays and
 * plain objects, so that no toJSON can change what is written. The encoder
 * then writes natively, without a replacer that JavaScript must run for every
 * member, which is most of what sending a small request costs the kit.
 */

/** Requests nest a few levels; deeper than this the answer is "not sure" rather than a deeper recursion. */
const DEPTH = 64;

const hasToJson = (x: object): boolean => typeof (x as { toJSON?: unknown }).toJSON === 'function';

/** True only when sure; false sends the value to the encoder that looks at every member. */
export function writesAsIs(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'bigint':
      return false;
    case 'object':
      break;
    default:
      // Strings, booleans, and what JSON leaves out or writes as null (undefined, functions, symbols) alike on both paths.
      return true;
  }
  if (value === null) return true;
  if (depth > DEPTH || hasToJson(value)) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!writesAsIs(value[i], depth + 1)) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in value) if (!writesAsIs((value as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}
