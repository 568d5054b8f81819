/**
 * plainJsonText, the encoder's path for plain data, writes what the wire must (JSON.stringify's
 * text with each -0 as -0.0) or says it is not sure: always for a value holding NaN, ±Infinity, a
 * BigInt, a toJSON or a class instance, however deep, and when a string of the request's own holds
 * the mark it puts in a -0's place. The encoder still writes all of those as the wire must, and the
 * request itself is never written to.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MARK, plainJsonText } from '../../adapters/plain-json.js';
import { encodeRequest } from '../../adapters/wire.js';

/** Plain JSON data. */
const plain = fc.jsonValue({ maxDepth: 4 });
/** `inner` put at a path of `keys` inside `outer` (or in place of it), arrays and objects alike. */
function inside(outer: unknown, inner: unknown, keys: number[]): unknown {
  if (keys.length === 0 || typeof outer !== 'object' || outer === null) return inner;
  const [k, ...rest] = keys;
  if (Array.isArray(outer)) return outer.length === 0 ? [inner] : outer.map((x, i) => (i === k! % outer.length ? inside(x, inner, rest) : x));
  const names = Object.keys(outer);
  const name = names.length === 0 ? 'x' : names[k! % names.length]!;
  return { ...(outer as object), [name]: inside((outer as Record<string, unknown>)[name], inner, rest) };
}

/** -0 made 0, however deep. */
function withoutNegativeZero(v: unknown): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(withoutNegativeZero);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutNegativeZero(x)]));
  return v;
}

/** The wire's text by its definition: JSON.stringify's, with each -0 written -0.0. */
function wireText(value: unknown): string | undefined {
  const mark = '\u0000negative zero\u0000';
  return JSON.stringify(value, (_k, v: unknown) => (Object.is(v, -0) ? mark : v))?.replaceAll(JSON.stringify(mark), '-0.0');
}

describe("plainJsonText, the encoder's path for plain data", () => {
  it('is JSON.stringify for plain data without -0, and the encoder sends that', () => {
    fc.assert(
      fc.property(plain, (v) => {
        const value = withoutNegativeZero(v); // fc.jsonValue can give -0, which the next property is about
        expect(plainJsonText(value)).toBe(JSON.stringify(value));
        expect(encodeRequest(value)).toEqual({ ok: true, json: JSON.stringify(value) });
      }),
      { numRuns: 2000, seed: 20261204 },
    );
  });

  /** Plain data, with -0 and the members JSON leaves out (or writes null in arrays) put anywhere in it. */
  const leftOut = fc.constantFrom<unknown>(-0, undefined, () => 1, Symbol('s'));
  it('writes what the wire must (-0 as -0.0, the rest as JSON.stringify), the encoder sends that, and the value is left as it was', () => {
    fc.assert(
      fc.property(plain, fc.array(fc.tuple(leftOut, fc.array(fc.nat(), { maxLength: 4 })), { maxLength: 3 }), (outer, inserts) => {
        const value = inserts.reduce<unknown>((v, [inner, keys]) => inside(v, inner, keys), outer);
        const before = wireText(value);
        expect(plainJsonText(value)).toBe(before);
        if (before !== undefined) expect(encodeRequest(value)).toEqual({ ok: true, json: before });
        expect(wireText(value)).toBe(before);
      }),
      { numRuns: 2000, seed: 20261206 },
    );
  });

  it('is not sure of NaN, ±Infinity, a BigInt, a toJSON or a class instance anywhere, nor of what nests past its depth', () => {
    fc.assert(
      fc.property(
        plain,
        fc.constantFrom<unknown>(NaN, Infinity, -Infinity, 10n, { toJSON: () => -0 }, new Date(0), new (class Point {})()),
        fc.array(fc.nat(), { maxLength: 4 }),
        (outer, inner, keys) => {
          expect(plainJsonText(inside(outer, inner, keys))).toBeUndefined();
        },
      ),
      { numRuns: 1000, seed: 20261207 },
    );
    let deep: unknown = -0;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(plainJsonText(deep)).toBeUndefined();
    expect((encodeRequest(deep) as { json: string }).json).toBe(`${'['.repeat(100)}-0.0${']'.repeat(100)}`);
    let deepObject: unknown = { priority: -0 };
    for (let i = 0; i < 200; i++) deepObject = { x: [deepObject] };
    expect(plainJsonText(deepObject)).toBeUndefined();
    expect((encodeRequest(deepObject) as { json: string }).json).toContain('"priority":-0.0');
  });

  // MARK is what plainJsonText puts in a -0's place before writing: a request's own string or key
  // holding it, after a quote or alone, must never be taken for a -0.
  it("never takes a string or key of the request's own that holds its mark for a -0: the encoder still writes the request as it is", () => {
    const own = fc.constantFrom<unknown>(MARK, `"${MARK}`, `a"${MARK}"`, `\\${MARK}`, { [MARK]: -0 }, { [`"${MARK}`]: 1 }, [MARK, -0]);
    let unsure = 0;
    fc.assert(
      fc.property(plain, fc.array(fc.tuple(fc.oneof(own, leftOut), fc.array(fc.nat(), { maxLength: 4 })), { maxLength: 4 }), (outer, inserts) => {
        const value = inserts.reduce<unknown>((v, [inner, keys]) => inside(v, inner, keys), outer);
        const text = plainJsonText(value);
        if (text === undefined) unsure++;
        else expect(text).toBe(wireText(value));
        const wire = wireText(value);
        if (wire !== undefined) expect(encodeRequest(value)).toEqual({ ok: true, json: wire });
      }),
      { numRuns: 2000, seed: 20261208 },
    );
    // The guard was put to the test, not only the values it lets through.
    expect(unsure).toBeGreaterThan(100);
    expect(plainJsonText({ s: `"${MARK}`, p: -0 })).toBeUndefined();
    expect(encodeRequest({ s: `"${MARK}`, p: -0 })).toEqual({ ok: true, json: '{"s":"\\"\\u0000-0","p":-0.0}' });
    expect(plainJsonText({ s: MARK })).toBe(JSON.stringify({ s: MARK }));
  });

  it('writes a -0 deep in a request as -0.0 and leaves the request holding its -0', () => {
    const zero = { priority: -0 };
    const request = { blocks: [{ content: 'x', tags: ['a'] }, zero] };
    expect(plainJsonText(request)).toBe('{"blocks":[{"content":"x","tags":["a"]},{"priority":-0.0}]}');
    expect(Object.is(zero.priority, -0)).toBe(true);
    expect(isDeepStrictEqual(request, { blocks: [{ content: 'x', tags: ['a'] }, { priority: -0 }] })).toBe(true);
  });
});
