/**
 * writesAsIs, the encoder's native path, says "as is" only of values JSON.stringify writes as the
 * wire must: never of one holding -0, NaN, ±Infinity, a BigInt, a toJSON or a class instance,
 * however deep, and the encoder still writes those as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainJsonText, writesAsIs } from '../../adapters/plain-json.js';
import { encodeRequest } from '../../adapters/wire.js';

/** Plain JSON data. */
const plain = fc.jsonValue({ maxDepth: 4 });
/** What JSON.stringify alone would write otherwise than the wire must. */
const special = fc.constantFrom<unknown>(-0, NaN, Infinity, -Infinity, 10n, { toJSON: () => -0 }, new Date(0), new (class Point {})());

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

describe('writesAsIs', () => {
  it('holds for plain JSON data, which the encoder then writes as JSON.stringify does', () => {
    fc.assert(
      fc.property(plain, (v) => {
        const value = withoutNegativeZero(v); // fc.jsonValue can give -0, which is the point of the next property
        expect(writesAsIs(value)).toBe(true);
        expect(encodeRequest(value)).toEqual({ ok: true, json: JSON.stringify(value) });
      }),
      { numRuns: 2000, seed: 20261204 },
    );
  });

  it('never holds for a value with -0, NaN, ±Infinity, a BigInt, a toJSON or a class instance anywhere in it', () => {
    fc.assert(
      fc.property(plain, special, fc.array(fc.nat(), { maxLength: 4 }), (outer, inner, keys) => {
        expect(writesAsIs(inside(outer, inner, keys))).toBe(false);
      }),
      { numRuns: 2000, seed: 20261205 },
    );
  });

  it('leaves deep values to the encoder that looks at every member: -0 still goes as -0.0', () => {
    let deep: unknown = { priority: -0 };
    for (let i = 0; i < 200; i++) deep = { x: [deep] };
    expect(writesAsIs(deep)).toBe(false);
    expect(encodeRequest(deep)).toMatchObject({ ok: true });
    expect((encodeRequest(deep) as { json: string }).json).toContain('"priority":-0.0');
  });
});

/** The wire's text by its definition: JSON.stringify's, with each -0 written -0.0. */
function wireText(value: unknown): string | undefined {
  const mark = '\u0000negative zero\u0000';
  return JSON.stringify(value, (_k, v: unknown) => (Object.is(v, -0) ? mark : v))?.replaceAll(JSON.stringify(mark), '-0.0');
}

describe('plainJsonText, the one-walk writer of plain data with a -0', () => {
  /** Plain data, with -0 and the members JSON leaves out (or writes null in arrays) put anywhere in it. */
  const leftOut = fc.constantFrom<unknown>(-0, undefined, () => 1, Symbol('s'));
  it('writes what the wire must (-0 as -0.0, the rest as JSON.stringify), and the encoder sends that', () => {
    fc.assert(
      fc.property(plain, fc.array(fc.tuple(leftOut, fc.array(fc.nat(), { maxLength: 4 })), { maxLength: 3 }), (outer, inserts) => {
        const value = inserts.reduce<unknown>((v, [inner, keys]) => inside(v, inner, keys), outer);
        expect(plainJsonText(value)).toBe(wireText(value));
        if (!writesAsIs(value) && value !== undefined && typeof value !== 'function' && typeof value !== 'symbol')
          expect(encodeRequest(value)).toEqual({ ok: true, json: wireText(value) });
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
  });
});
