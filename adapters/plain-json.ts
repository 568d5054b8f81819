/**
 * The wire's text of plain data (wire.ts) in one walk and one native
 * JSON.stringify: no replacer, which JavaScript would run for every member,
 * and no writer of our own (a third of a default run's requests carry a -0:
 * written by the native writer too, they cost the kit as little as the rest).
 *
 * JSON.stringify writes -0 as 0, so the walk puts a mark in each -0's place,
 * in a copy of only the arrays and objects on the way to one (the request
 * itself is never written to), and the mark's JSON is then replaced by -0.0.
 * A string of the request's own could hold the mark's JSON: then the text has
 * more marks than the walk put there, and the answer is "not sure".
 */

/** Requests nest a few levels; deeper than this the answer is "not sure" rather than a deeper recursion. */
const DEPTH = 64;

/** In a -0's place while writing: a string, so JSON.stringify writes it, and its JSON replaced afterwards. */
export const MARK = '\u0000-0';
const MARK_JSON = JSON.stringify(MARK);

const NOT_SURE: unique symbol = Symbol('not sure');

const hasToJson = (x: object): boolean => typeof (x as { toJSON?: unknown }).toJSON === 'function';

/**
 * `value` with each -0 replaced by MARK (counted in `marks`), copying only
 * what holds one; `value` itself when it holds none. NOT_SURE for what
 * JSON.stringify would write otherwise than the wire must, or might: NaN,
 * ±Infinity, a BigInt, a toJSON, a class instance, deeper than DEPTH.
 */
function marked(value: unknown, depth: number, marks: { n: number }): unknown {
  switch (typeof value) {
    case 'number':
      if (value === 0) {
        if (!Object.is(value, -0)) return value;
        marks.n++;
        return MARK;
      }
      return Number.isFinite(value) ? value : NOT_SURE;
    case 'bigint':
      return NOT_SURE;
    case 'object':
      break;
    default:
      // Strings, booleans, and what JSON leaves out or writes as null (undefined, functions, symbols) go as they are.
      return value;
  }
  if (value === null) return value;
  if (depth > DEPTH || hasToJson(value)) return NOT_SURE;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const m = marked(item, depth + 1, marks);
      if (m === NOT_SURE) return NOT_SURE;
      if (m !== item) {
        copy ??= value.slice();
        copy[i] = m;
      }
    }
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return NOT_SURE;
  let copy: Record<string, unknown> | undefined;
  // Own keys, as JSON.stringify writes: for-in would also visit what an object inherits.
  for (const k of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[k];
    const m = marked(member, depth + 1, marks);
    if (m === NOT_SURE) return NOT_SURE;
    if (m !== member) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[k] = m;
    }
  }
  return copy ?? value;
}

/**
 * The wire's text of `value`: JSON.stringify's, with each -0 written `-0.0`.
 * Undefined when not sure (see `marked`, and a string holding the mark), and
 * for what JSON.stringify writes nothing of (undefined, a function): the
 * encoder that looks at every member then decides.
 */
export function plainJsonText(value: unknown): string | undefined {
  const marks = { n: 0 };
  const shadow = marked(value, 0, marks);
  if (shadow === NOT_SURE) return undefined;
  const json = JSON.stringify(shadow) as string | undefined;
  if (json === undefined || marks.n === 0) return json;
  const pieces = json.split(MARK_JSON);
  return pieces.length - 1 === marks.n ? pieces.join('-0.0') : undefined;
}
