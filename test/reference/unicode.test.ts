/** SPEC NUM-1 and NUM-4: lengths and order by code points, with Python's view of lone surrogates. */
import { describe, expect, it } from 'vitest';
import { codePointLength, compareCodePoints } from '../../reference/index.js';
import { NOW, block, ok, tiered, TIER_BUDGET } from './helpers.js';
import { byCodePoints } from './plain.js';

const GRIN = '\u{1F600}'; // astral: two UTF-16 units
const WAVE = '\uFF5E'; // BMP, above the surrogates
const HIGH = '\uD800';
const LOW = '\uDC00';

/** An independent oracle (plain.ts): string iteration yields code points, and a lone surrogate as itself. */
const oracle = byCodePoints;

describe('codePointLength', () => {
  it('counts an ASCII string by its characters and the empty string as 0', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
  });

  it('counts an astral character as one code point although it is two UTF-16 units', () => {
    expect(GRIN.length).toBe(2);
    expect(codePointLength(GRIN)).toBe(1);
    expect(codePointLength('\u{1F44D}' + GRIN + 'a')).toBe(3);
  });

  it('counts a BMP character above the surrogates as one', () => {
    expect(codePointLength(WAVE)).toBe(1);
    expect(codePointLength('\uFFFF\uE000')).toBe(2);
  });

  it('counts a lone high or low surrogate as one code point', () => {
    expect(codePointLength(HIGH)).toBe(1);
    expect(codePointLength(LOW)).toBe(1);
    expect(codePointLength('a' + HIGH)).toBe(2);
  });

  it('counts a low surrogate followed by a high one as two code points, not a pair', () => {
    expect(codePointLength(LOW + HIGH)).toBe(2);
  });

  it('pairs a high surrogate only with the low surrogate right after it', () => {
    // lone high, then a pair: two code points
    expect(codePointLength(HIGH + GRIN)).toBe(2);
    expect(codePointLength(HIGH + HIGH + LOW)).toBe(2);
  });
});

/** Every string of up to 3 units over an alphabet of surrogates, BMP-high and ASCII units. */
function trickyStrings(): string[] {
  const units = ['a', '\uD83D', '\uDE00', WAVE, '\uE000', HIGH, '\uDFFF'];
  const strings = [''];
  for (let len = 1; len <= 3; len++) {
    for (const s of strings.filter((x) => x.length === len - 1)) for (const u of units) strings.push(s + u);
  }
  return strings;
}

describe('codePointLength against code-point iteration', () => {
  it('agrees on every string of up to 3 tricky units', () => {
    const wrong = trickyStrings().filter((s) => codePointLength(s) !== Array.from(s).length);
    expect(wrong).toEqual([]);
  });
});

describe('compareCodePoints', () => {
  it('orders U+FF5E before U+1F600 although UTF-16 order says the opposite', () => {
    expect(WAVE > GRIN).toBe(true); // JavaScript's own order
    expect(compareCodePoints(WAVE, GRIN)).toBe(-1);
    expect(compareCodePoints(GRIN, WAVE)).toBe(1);
  });

  it('returns 0 for equal strings and orders a proper prefix first', () => {
    expect(compareCodePoints('b-1', 'b-1')).toBe(0);
    expect(compareCodePoints('ab', 'abc')).toBe(-1);
    expect(compareCodePoints('abc', 'ab')).toBe(1);
    expect(compareCodePoints('', 'a')).toBe(-1);
  });

  it('orders ASCII and BMP strings as UTF-16 does', () => {
    expect(compareCodePoints('a', 'b')).toBe(-1);
    expect(compareCodePoints('Z', 'a')).toBe(-1);
    expect(compareCodePoints('\u00e9', 'e')).toBe(1);
  });

  it('compares a lone surrogate by its own value 0xD800..0xDFFF', () => {
    expect(compareCodePoints(HIGH, '\uE000')).toBe(-1); // 0xD800 < 0xE000
    expect(compareCodePoints('\uDFFF', '\uFFFF')).toBe(-1);
    expect(compareCodePoints(LOW, HIGH)).toBe(1);
    expect(compareCodePoints(HIGH, '\u{10000}')).toBe(-1); // 0xD800 < 0x10000
    expect(compareCodePoints('\uD7FF', HIGH)).toBe(-1);
  });

  it('compares two astral characters that share a high surrogate by their code points', () => {
    expect(compareCodePoints('\u{1F600}', '\u{1F601}')).toBe(-1);
    expect(compareCodePoints('x\u{1F601}', 'x\u{1F600}')).toBe(1);
  });

  it('orders an astral character after a lone high surrogate followed by a BMP character', () => {
    // [0x1F600] against [0xD83D, 0xFFFF]: UTF-16 sees 0xDE00 < 0xFFFF at the second unit.
    const pairThenNothing = '\u{1F600}';
    const loneHighThenBmp = '\uD83D\uFFFF';
    expect(pairThenNothing < loneHighThenBmp).toBe(true);
    expect(compareCodePoints(pairThenNothing, loneHighThenBmp)).toBe(1);
    expect(compareCodePoints('x\uD83DA', 'x\u{1F600}')).toBe(-1);
  });

  it('agrees with code-point iteration on every string of up to 3 tricky units', () => {
    const strings = trickyStrings();
    expect(strings.length).toBe(1 + 7 + 49 + 343);
    let mismatches = 0;
    for (const a of strings) for (const b of strings) if (compareCodePoints(a, b) !== oracle(a, b)) mismatches++;
    expect(mismatches).toBe(0);
  });
});

describe('code points end to end', () => {
  it('costs a content of 8 astral characters 2 tokens, not 4', () => {
    const r = ok(tiered(100, [block('b', 'coverage', GRIN.repeat(8))]));
    expect(r.estimated_tokens).toBe(2);
    expect(r.segments?.[0]?.tokens).toBe(2);
  });

  it('renders the source U+FF5E before the source U+1F600', () => {
    const r = ok(tiered(100, [block('b-1', GRIN, 'one'), block('b-2', WAVE, 'two')]));
    expect(r.included).toEqual(['b-2', 'b-1']);
    expect(r.context).toBe(`[${WAVE} \u00b7 b-2]\ntwo\n\n[${GRIN} \u00b7 b-1]\none`);
  });

  it('breaks a priority tie for the last token in favour of the block id with U+FF5E', () => {
    // Budget 3: working 1, every other tier 0, remainder 2 not pooled: one 1-token block fits.
    const r = ok(tiered(3, [block(`b${GRIN}`, 'coverage', 'x', 5), block(`b${WAVE}`, 'coverage', 'y', 5)]));
    expect(r.included).toEqual([`b${WAVE}`]);
    expect(r.omissions).toEqual([{ block_id: `b${GRIN}`, reason: TIER_BUDGET }]);
  });

  it('accepts lone surrogates in ids, sources and contents and counts them as code points', () => {
    const r = ok({ now: NOW, budget: 10, blocks: [block(HIGH, LOW, 'abc' + HIGH)] });
    expect(r.included).toEqual([HIGH]);
    expect(r.context).toBe(`[${LOW} \u00b7 ${HIGH}]\nabc${HIGH}`);
    expect(r.estimated_tokens).toBe(1);
  });
});
