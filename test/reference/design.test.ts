/**
 * reference/design.ts: the design's parts, the specification's design as one
 * value, the same parts with declared constants, and the tables exported to
 * an implementation in another language (the Python example's design.json).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  compareRank,
  countingEstimator,
  countTokens,
  designOf,
  designTables,
  estimateTokens,
  SPEC_COUNT,
  SPEC_DESIGN,
  SPEC_RENDER,
  shareOf,
  tierBudget,
  tierIn,
  tierOf,
} from '../../reference/index.js';
import { tuningOf } from '../../reference/tuning.js';

const DESIGN_JSON = fileURLToPath(new URL('../../adapters/examples/python/design.json', import.meta.url));

describe('the specification design', () => {
  it('costs a block as NUM-2 does, by its counting rule', () => {
    for (const s of ['', 'abc', 'abcdefgh', 'a'.repeat(401), '\u{1F600}'.repeat(8), 'x\ud800y'])
      expect(SPEC_DESIGN.estimator.cost(s), JSON.stringify(s)).toBe(estimateTokens(s));
    expect(countTokens({ charsPerToken: 4, rounding: 'ceil', minimum: 0 }, 9)).toBe(3);
    expect(countTokens({ charsPerToken: 4, rounding: 'round half to even', minimum: 0 }, 10)).toBe(2);
    expect(countTokens({ charsPerToken: 4, rounding: 'round half to even', minimum: 0 }, 14)).toBe(4);
    expect(countTokens({ charsPerToken: 4, rounding: 'round half up', minimum: 1 }, 2)).toBe(1);
    expect(countTokens(SPEC_COUNT, 0)).toBe(1);
  });

  it('ranks by -priority, then the preferences asked for, then block_id by code points (TIER-3, CON-6)', () => {
    const key = (id: string, priority: number, confidence = 1, createdAt = 0) => ({ id, priority, confidence, createdAt });
    const none = { prefer_high_confidence: false, prefer_recency: false };
    expect(compareRank(key('b', 2), key('a', 1), none)).toBe(-1);
    expect(compareRank(key('a', 1, 0.5), key('b', 1, 0.9), none)).toBe(-1);
    expect(compareRank(key('a', 1, 0.5), key('b', 1, 0.9), { ...none, prefer_high_confidence: true })).toBe(1);
    expect(compareRank(key('a', 1, 1, 5), key('b', 1, 1, 9), { ...none, prefer_recency: true })).toBe(1);
    expect(compareRank(key('\u{1F600}', 1), key('\uffff', 1), none)).toBe(1);
  });

  it('splits budgets and maps sources as TIER-1, TIER-2 and NUM-3 say', () => {
    expect(shareOf(Number.MAX_SAFE_INTEGER, 40)).toBe(tierBudget(Number.MAX_SAFE_INTEGER, 'working'));
    expect(shareOf(99, 15)).toBe(14);
    for (const s of ['memory', 'waf_info', 'notes', 'constructor', '__proto__']) expect(tierIn(SPEC_DESIGN.tiers, s), s).toBe(tierOf(s));
    expect(SPEC_DESIGN.expired(11, 0, 10)).toBe(true);
    expect(SPEC_DESIGN.expired(10, 0, 10)).toBe(false);
    expect(SPEC_DESIGN.expired(99, 0, 0)).toBe(false);
    expect(SPEC_DESIGN.poolOrder(['b', 'a'])).toEqual(['b', 'a']);
  });

  it('renders a header of source and block_id, blocks joined by a blank line, nothing when empty (REN-2, REN-3)', () => {
    expect(SPEC_RENDER.header({ source: 'memory', block_id: 'm1' })).toBe('[memory \u00b7 m1]\n');
    expect(SPEC_RENDER.separator).toBe('\n\n');
    expect(SPEC_RENDER.empty).toBe('');
  });
});

describe('designOf: the same parts with declared constants (section 17)', () => {
  it('is the specification design when nothing is declared', () => {
    expect(designOf({})).toBe(SPEC_DESIGN);
  });

  it('takes the declared divisor, shares and sources, and keeps the rest of the map', () => {
    const d = designOf({
      chars_per_token: 3,
      tier_fractions: { working: 50, episodic: 20, longterm: 20, knowledge: 10 },
      source_to_tier: { notes: 'knowledge', memory: 'working' },
    });
    expect(d.estimator.cost('abcdef')).toBe(2);
    expect(d.tiers.percent.working).toBe(50);
    expect(tierIn(d.tiers, 'notes')).toBe('knowledge');
    expect(tierIn(d.tiers, 'memory')).toBe('working');
    expect(tierIn(d.tiers, 'tactics')).toBe('longterm');
    expect(tierIn(d.tiers, 'other')).toBe('working');
    expect(SPEC_DESIGN.tiers.sourceToTier.notes).toBeUndefined();
  });

  it('is what the reference reads declared constants as (tuningOf)', () => {
    const declared = { chars_per_token: 2, source_to_tier: JSON.parse('{"__proto__":"knowledge","x":"episodic"}') };
    const t = tuningOf(declared);
    const d = designOf(declared);
    expect(t.charsPerToken).toBe(d.count!.charsPerToken);
    for (const s of ['__proto__', 'x', 'memory', 'y']) expect(t.tierOf(s), s).toBe(tierIn(d.tiers, s));
    expect(countingEstimator(d.count).cost('abcd')).toBe(2);
  });
});

describe('the exported tables', () => {
  it('adapters/examples/python/design.json holds them (CTXCONFORM_UPDATE_DESIGN=1 writes it)', () => {
    const want = designTables();
    if (process.env.CTXCONFORM_UPDATE_DESIGN === '1') writeFileSync(DESIGN_JSON, `${JSON.stringify(want, null, 2)}\n`);
    expect(JSON.parse(readFileSync(DESIGN_JSON, 'utf8'))).toEqual(want);
  });
});
