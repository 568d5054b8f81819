/**
 * SPEC section 17: the reference with declared constants. With the
 * specification's constants it is exactly itself; with others it agrees with
 * an independent implementation of the tiered core (test/fixtures/broken/
 * mutant.ts) given the same constants, and every rule the constants cannot
 * change holds as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assemble, CAPABILITIES, constantsProblems, estimateTokens, isErrorAnswer, TIER_PERCENT, tierBudget } from '../../reference/index.js';
import type { Result, DeclaredConstants, Tier } from '../../reference/index.js';
import { request } from '../../judging/properties/arbitraries.js';
import { mutant } from '../fixtures/broken/mutant.js';
import { NOW, TIER_BUDGET, block, tiered } from './helpers.js';

const TUNED: DeclaredConstants = {
  chars_per_token: 3,
  tier_fractions: { working: 50, episodic: 20, longterm: 20, knowledge: 10 },
  source_to_tier: { notes: 'knowledge' },
};

function withConstants(req: unknown, constants: DeclaredConstants): Result {
  const a = assemble(req, { constants });
  if (isErrorAnswer(a)) throw new Error(a.error.message);
  return a;
}

const TIERS: Tier[] = ['working', 'episodic', 'longterm', 'knowledge'];
const tier = fc.constantFrom(...TIERS);

/** Any valid declaration: each member absent or present, shares summing to at most 100. */
const constants: fc.Arbitrary<DeclaredConstants> = fc.record(
  {
    chars_per_token: fc.integer({ min: 1, max: 16 }),
    tier_fractions: fc.tuple(fc.nat(100), fc.nat(100), fc.nat(100), fc.nat(100), fc.constantFrom(100, 97, 90, 50)).map(([a, b, c, d, total]) => {
      const sum = a + b + c + d || 1;
      const [w, e, l] = [a, b, c].map((x) => Math.floor((x * total) / sum));
      return { working: w!, episodic: e!, longterm: l!, knowledge: Math.max(0, Math.min(100 - w! - e! - l!, Math.floor((d * total) / sum))) };
    }),
    source_to_tier: fc.dictionary(fc.constantFrom('notes', 'memory', 'coverage', 'knowledge', 'Memory', '__proto__', 'constructor', 'waf-info'), tier, {
      maxKeys: 4,
    }),
  },
  { requiredKeys: [] },
);

describe('declared constants in the reference (SPEC section 17)', () => {
  it("is exactly itself with no declaration, an empty one, or the specification's values declared", () => {
    const spec: DeclaredConstants = { chars_per_token: 4, tier_fractions: { ...TIER_PERCENT }, source_to_tier: { memory: 'longterm', waf_info: 'knowledge' } };
    fc.assert(
      fc.property(request({ profiles: ['tiered', 'ranked'], capabilities: CAPABILITIES }), (req) => {
        const plain = JSON.stringify(assemble(req));
        expect(JSON.stringify(assemble(req, { constants: {} }))).toBe(plain);
        expect(JSON.stringify(assemble(req, { constants: spec }))).toBe(plain);
      }),
      { numRuns: 1000, seed: 14 },
    );
  });

  it('agrees with an independent tiered core given the same constants, on random requests and declarations', () => {
    fc.assert(
      fc.property(request({ profiles: ['tiered'], capabilities: [] }), constants, (req, c) => {
        const other = mutant({
          ...(c.chars_per_token !== undefined ? { charsPerToken: c.chars_per_token } : {}),
          ...(c.tier_fractions !== undefined ? { tierPercent: c.tier_fractions } : {}),
          ...(c.source_to_tier !== undefined ? { sourceToTier: c.source_to_tier } : {}),
        });
        expect(constantsProblems(c)).toEqual([]);
        expect(assemble(req, { constants: c, capabilities: [] })).toEqual(other(req));
      }),
      { numRuns: 3000, seed: 15 },
    );
  });

  it('costs a block floor(code points / chars_per_token), at least 1, code points not UTF-16 units', () => {
    // 12 astral characters: 12 code points, 4 tokens at 3 per token (6 if UTF-16 units were counted).
    const r = withConstants(tiered(1000, [block('a', 'coverage', '\u{1f600}'.repeat(12)), block('b', 'coverage', 'xy')]), TUNED);
    expect(r.segments?.map((s) => [s.block_id, s.tokens])).toEqual([
      ['a', 4],
      ['b', 1],
    ]);
    expect(r.estimated_tokens).toBe(5);
    expect(estimateTokens('x'.repeat(11), 3)).toBe(3);
    expect(estimateTokens('', 16)).toBe(1);
  });

  it('splits the budget by the declared shares, exactly, and maps declared sources to their tiers', () => {
    expect(TIERS.map((t) => tierBudget(99, t, TUNED.tier_fractions))).toEqual([49, 19, 19, 9]);
    expect(TIERS.map((t) => tierBudget(Number.MAX_SAFE_INTEGER, t, { working: 100, episodic: 0, longterm: 0, knowledge: 0 }))).toEqual([
      Number.MAX_SAFE_INTEGER,
      0,
      0,
      0,
    ]);
    // Budget 100: knowledge 10. notes is knowledge now, so a 10-token notes block fills that tier and an 11-token one does not.
    const fits = withConstants(tiered(100, [block('n', 'notes', 'x'.repeat(30))]), TUNED);
    expect(fits.segments?.[0]).toMatchObject({ tier: 'knowledge', reason: 'tier', tokens: 10 });
    const big = withConstants(tiered(100, [block('n', 'notes', 'x'.repeat(33)), block('w', 'coverage', 'w'.repeat(150), 2)]), TUNED);
    // w (50) fills working; n (11) is set aside and takes the pool (20 + 20 + 10 = 50); coverage renders before notes.
    expect(big.segments?.map((s) => [s.block_id, s.tier, s.reason])).toEqual([
      ['w', 'working', 'tier'],
      ['n', 'knowledge', 'overflow'],
    ]);
  });

  it('keeps sources case-sensitive and reads a declared __proto__ as a source like any other', () => {
    // As JSON.parse reads a manifest: __proto__ an own member.
    const c: DeclaredConstants = {
      tier_fractions: { working: 10, episodic: 10, longterm: 10, knowledge: 70 },
      source_to_tier: JSON.parse('{"__proto__": "knowledge", "notes": "knowledge"}') as Record<string, Tier>,
    };
    const r = withConstants(tiered(100, [block('p', '__proto__', 'x'.repeat(200)), block('m', 'NOTES', 'y'), block('c', 'constructor', 'z')]), c);
    expect(r.segments?.map((s) => [s.block_id, s.tier])).toEqual([
      ['m', 'working'],
      ['p', 'knowledge'],
      ['c', 'working'],
    ]);
  });

  it('keeps the remainder out of the pool when the shares sum to less than 100', () => {
    // 50/20/20/0 = 90: at budget 100 the tiers hold 90 and the pool of an empty request is 90, never 100.
    const c: DeclaredConstants = { tier_fractions: { working: 50, episodic: 20, longterm: 20, knowledge: 0 } };
    const r = withConstants(tiered(100, [block('k', 'knowledge', 'x'.repeat(4 * 91))]), c);
    expect(r.omissions).toEqual([{ block_id: 'k', reason: TIER_BUDGET }]);
    const fits = withConstants(tiered(100, [block('k', 'knowledge', 'x'.repeat(4 * 90))]), c);
    expect(fits.segments?.[0]).toMatchObject({ tier: 'knowledge', reason: 'overflow', tokens: 90 });
  });

  it('changes what the pinned blocks cost, so whether they overflow', () => {
    const req = tiered(10, [block('p', 'coverage', 'x'.repeat(40), 1, { pinned: true })]);
    expect(isErrorAnswer(assemble(req))).toBe(false);
    const a = assemble(req, { constants: { chars_per_token: 3 } });
    expect(isErrorAnswer(a) && a.error.code).toBe('pinned_overflow');
  });

  it('leaves profile ranked as section 6 writes it', () => {
    const req = { profile: 'ranked', now: NOW, budget: 40, blocks: [block('a', 'coverage', 'x'.repeat(30)), block('b', 'notes', 'y'.repeat(9))] };
    expect(assemble(req, { constants: TUNED })).toEqual(assemble(req));
  });

  it('answers invalid declared constants with invalid_request naming options.constants, never a throw', () => {
    const a = assemble(tiered(10, []), { constants: { chars_per_token: 0 } });
    expect(isErrorAnswer(a) && a.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('options.constants/chars_per_token') });
  });
});

describe('constantsProblems (DECL-1)', () => {
  it('accepts every valid declaration, the empty one included', () => {
    expect(constantsProblems({})).toEqual([]);
    expect(constantsProblems(TUNED)).toEqual([]);
    expect(constantsProblems({ tier_fractions: { working: 0, episodic: 0, longterm: 0, knowledge: 0 } })).toEqual([]);
  });

  it('names each problem by its JSON Pointer', () => {
    const paths = (x: unknown): string[] => constantsProblems(x).map((p) => p.path);
    expect(paths(null)).toEqual(['']);
    expect(paths([])).toEqual(['']);
    expect(paths({ chars_per_tokens: 3 })).toEqual(['/chars_per_tokens']);
    for (const bad of [0, 17, 2.5, '3', null]) expect(paths({ chars_per_token: bad }), String(bad)).toEqual(['/chars_per_token']);
    expect(paths({ tier_fractions: [40, 20, 25, 15] })).toEqual(['/tier_fractions']);
    expect(paths({ tier_fractions: { working: 50, episodic: 20, longterm: 20 } })).toEqual(['/tier_fractions/knowledge']);
    expect(paths({ tier_fractions: { working: 50.5, episodic: 20, longterm: 20, knowledge: -1 } })).toEqual([
      '/tier_fractions/working',
      '/tier_fractions/knowledge',
    ]);
    expect(paths({ tier_fractions: { working: 50, episodic: 20, longterm: 20, knowledge: 10, semantic: 0 } })).toEqual(['/tier_fractions/semantic']);
    expect(constantsProblems({ tier_fractions: { working: 50, episodic: 20, longterm: 25, knowledge: 15 } })).toEqual([
      { path: '/tier_fractions', message: 'the tier shares sum to 110, more than 100' },
    ]);
    expect(paths({ source_to_tier: 'notes' })).toEqual(['/source_to_tier']);
    expect(paths({ source_to_tier: { '': 'working', notes: 'semantic', 'a/b': 7 } })).toEqual([
      '/source_to_tier/',
      '/source_to_tier/notes',
      '/source_to_tier/a~1b',
    ]);
  });
});
