/** SPEC NUM-2, NUM-3, TIER-1, TIER-2, EXP-1: the arithmetic every other rule stands on. */
import { describe, expect, it } from 'vitest';
import { estimateTokens, isExpired, SOURCE_TO_TIER, TIER_FRACTIONS, TIER_PERCENT, tierBudget, tierOf, TIERS } from '../../reference/index.js';
import type { Tier } from '../../reference/index.js';

describe('estimateTokens', () => {
  it('costs the empty string 1 token', () => {
    expect(estimateTokens('')).toBe(1);
  });

  it('costs anything under 8 code points 1 token', () => {
    expect(estimateTokens('a')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcdefg')).toBe(1);
  });

  it('floors code points divided by 4', () => {
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('a'.repeat(11))).toBe(2);
    expect(estimateTokens('a'.repeat(12))).toBe(3);
    expect(estimateTokens('a'.repeat(100))).toBe(25);
    expect(estimateTokens('a'.repeat(401))).toBe(100);
  });

  it('counts astral characters as one code point each', () => {
    expect(estimateTokens('\u{1F600}'.repeat(8))).toBe(2);
    expect(estimateTokens('\u{1F600}'.repeat(7))).toBe(1);
  });
});

describe('tierOf', () => {
  it('maps every listed source to its tier', () => {
    const want: Record<string, Tier> = {
      memory: 'longterm',
      tactics: 'longterm',
      coverage: 'working',
      tool_results: 'working',
      episodes: 'episodic',
      session_summary: 'episodic',
      knowledge: 'knowledge',
      waf_info: 'knowledge',
    };
    for (const [source, tier] of Object.entries(want)) expect(tierOf(source), source).toBe(tier);
    expect(Object.keys(SOURCE_TO_TIER).sort()).toEqual(Object.keys(want).sort());
  });

  it('maps an unknown source to working', () => {
    expect(tierOf('notes')).toBe('working');
    expect(tierOf('\u{1F600}')).toBe('working');
  });

  it('is case-sensitive: Memory and KNOWLEDGE are unknown sources', () => {
    expect(tierOf('Memory')).toBe('working');
    expect(tierOf('KNOWLEDGE')).toBe('working');
    expect(tierOf(' memory')).toBe('working');
  });

  it('treats names of Object.prototype members as ordinary unknown sources', () => {
    for (const s of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) expect(tierOf(s), s).toBe('working');
  });
});

describe('tier shares', () => {
  it('publishes the fractions and whole percentages of the lesson, summing to 100', () => {
    expect(TIER_FRACTIONS).toEqual({ working: 0.4, episodic: 0.2, longterm: 0.25, knowledge: 0.15 });
    expect(TIER_PERCENT).toEqual({ working: 40, episodic: 20, longterm: 25, knowledge: 15 });
    expect(TIERS.reduce((s, t) => s + TIER_PERCENT[t], 0)).toBe(100);
  });
});

describe('tierBudget', () => {
  const exact = (b: number, t: Tier): number => Number((BigInt(b) * BigInt(TIER_PERCENT[t])) / 100n);

  it('splits a budget of 100 into 40, 20, 25 and 15', () => {
    expect(TIERS.map((t) => tierBudget(100, t))).toEqual([40, 20, 25, 15]);
  });

  it('floors each share: 99 gives 39, 19, 24 and 14 and leaves a remainder of 3', () => {
    expect(TIERS.map((t) => tierBudget(99, t))).toEqual([39, 19, 24, 14]);
  });

  it('gives 0 to every tier of a budget of 0 and of 1, and 1 to working only at 3', () => {
    expect(TIERS.map((t) => tierBudget(0, t))).toEqual([0, 0, 0, 0]);
    expect(TIERS.map((t) => tierBudget(1, t))).toEqual([0, 0, 0, 0]);
    expect(TIERS.map((t) => tierBudget(3, t))).toEqual([1, 0, 0, 0]);
  });

  it('is exact at 2^53 - 1', () => {
    const max = Number.MAX_SAFE_INTEGER;
    // 9007199254740991 * 40 / 100 = 3602879701896396.4, and so on
    expect(TIERS.map((t) => tierBudget(max, t))).toEqual([3602879701896396, 1801439850948198, 2251799813685247, 1351079888211148]);
  });

  it('matches BigInt arithmetic on the 20000 budgets below 2^53, where float products round', () => {
    let floatWrong = 0;
    let wrong = 0;
    for (let b = Number.MAX_SAFE_INTEGER; b > Number.MAX_SAFE_INTEGER - 20000; b--) {
      for (const t of TIERS) {
        const want = exact(b, t);
        if (tierBudget(b, t) !== want) wrong++;
        if (Math.floor((b * TIER_PERCENT[t]) / 100) !== want) floatWrong++;
      }
    }
    expect(floatWrong).toBeGreaterThan(0); // the naive form is wrong here, so this range tests something
    expect(wrong).toBe(0);
  });

  it('matches BigInt arithmetic for budgets ending in every remainder mod 100 across magnitudes', () => {
    let wrong = 0;
    for (const base of [0, 1e6, 2 ** 40, 1e15, 2 ** 52, 2 ** 53 - 100]) {
      for (let r = 0; r < 100; r++) for (const t of TIERS) if (tierBudget(base + r, t) !== exact(base + r, t)) wrong++;
    }
    expect(wrong).toBe(0);
  });
});

describe('isExpired', () => {
  it('keeps a block live before created_at + ttl', () => {
    expect(isExpired(109, 100, 10)).toBe(false);
  });

  it('keeps a block live exactly at created_at + ttl', () => {
    expect(isExpired(110, 100, 10)).toBe(false);
  });

  it('expires a block strictly after created_at + ttl, even by half a second', () => {
    expect(isExpired(110.5, 100, 10)).toBe(true);
    expect(isExpired(111, 100, 10)).toBe(true);
  });

  it('never expires a block whose ttl is 0', () => {
    expect(isExpired(1e15, 0, 0)).toBe(false);
    expect(isExpired(1e15, -1e15, 0)).toBe(false);
  });

  it('computes the sum as a double: 0.1 + 0.2 is 0.30000000000000004', () => {
    expect(isExpired(0.30000000000000004, 0.1, 0.2)).toBe(false);
    expect(isExpired(0.3, 0.1, 0.2)).toBe(false);
    expect(isExpired(0.3000000000000001, 0.1, 0.2)).toBe(true);
  });
});
