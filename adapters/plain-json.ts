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

/**
 * The wire's text of plain data that holds a -0 (written `-0.0`, wire.ts), in
 * one walk: generated requests carry -0 priorities often, and the general
 * encoder's replacer and its writer with an explicit stack cost several times
 * what sending the request costs otherwise. Undefined when not sure (a value
 * JSON cannot carry, a toJSON, a class, deeper than DEPTH): the general
 * encoder then decides.
 */
export function plainJsonText(value: unknown, depth = 0): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (value === 0) return Object.is(value, -0) ? '-0.0' : '0';
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (depth > DEPTH || hasToJson(value)) return undefined;
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const t = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : plainJsonText(item, depth + 1);
      if (t === undefined) return undefined;
      text += i === 0 ? t : `,${t}`;
    }
    return `${text}]`;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  let text = '{';
  let first = true;
  for (const k of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[k];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const t = plainJsonText(member, depth + 1);
    if (t === undefined) return undefined;
    text += `${first ? '' : ','}${JSON.stringify(k)}:${t}`;
    first = false;
  }
  return `${text}}`;
}
