/**
 * The defect model with no defect switched on is the reference, answer for
 * answer: for every capability set and both profiles, with and without
 * declared constants, over random requests and over the corpus. Equal means
 * the same JSON text and deep-equal values (so -0 stays -0).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../conformance/cases/load.js';
import { modelAssemble } from '../../conformance/diagnose/index.js';
import { request } from '../../conformance/properties/arbitraries.js';
import type { DeclaredConstants } from '../../protocol/types.js';
import { assemble, CAPABILITIES } from '../../reference/index.js';
import type { Capability, Tier } from '../../reference/index.js';
import { TUNED } from '../fixtures/declared/constants.js';

/** The empty set, each capability alone, every capability but one, and all of them. */
const CAPABILITY_SETS: Capability[][] = [
  [],
  ...CAPABILITIES.map((k) => [k]),
  ...CAPABILITIES.map((k) => CAPABILITIES.filter((x) => x !== k)),
  [...CAPABILITIES],
];

function same(req: unknown, capabilities: readonly Capability[], constants?: DeclaredConstants): boolean {
  const reference = assemble(req, { capabilities, ...(constants ? { constants } : {}) });
  const model = modelAssemble(req, { capabilities, constants });
  return JSON.stringify(model) === JSON.stringify(reference) && isDeepStrictEqual(model, reference);
}

const TIERS: Tier[] = ['working', 'episodic', 'longterm', 'knowledge'];

/** Any valid declaration: each member absent or present, shares summing to at most 100. */
const declaration: fc.Arbitrary<DeclaredConstants> = fc.record(
  {
    chars_per_token: fc.integer({ min: 1, max: 16 }),
    tier_fractions: fc.tuple(fc.nat(40), fc.nat(30), fc.nat(20), fc.nat(10)).map(([w, e, l, k]) => ({ working: w, episodic: e, longterm: l, knowledge: k })),
    source_to_tier: fc.dictionary(
      fc.constantFrom('notes', 'memory', 'coverage', 'knowledge', 'Memory', '__proto__', 'constructor', 'waf-info'),
      fc.constantFrom(...TIERS),
      { maxKeys: 4 },
    ),
  },
  { requiredKeys: [] },
);

describe('the defect model without defects is the reference', () => {
  const cases = loadCorpus().cases;

  it.each(CAPABILITY_SETS.map((caps) => [caps.join(', ') || 'no capability', caps] as const))(
    'on every corpus request, %s, with and without the tuned constants',
    (_label, caps) => {
      const differ = cases.filter((c) => !same(c.request, caps) || !same(c.request, caps, TUNED)).map((c) => c.id);
      expect(differ).toEqual([]);
    },
  );

  it.each(CAPABILITY_SETS.map((caps) => [caps.join(', ') || 'no capability', caps] as const))('on random requests of both profiles, %s', (_label, caps) => {
    fc.assert(
      fc.property(request({ profiles: ['tiered', 'ranked'], capabilities: caps }), (req) => same(req, caps)),
      { numRuns: 400, seed: 23 },
    );
  });

  it('on random requests under random declared constants, every capability', () => {
    fc.assert(
      fc.property(
        declaration.chain((constants) => fc.tuple(fc.constant(constants), request({ profiles: ['tiered', 'ranked'], capabilities: CAPABILITIES, constants }))),
        ([constants, req]) => same(req, CAPABILITIES, constants),
      ),
      { numRuns: 1500, seed: 17 },
    );
  });

  it('on requests the generators never make: invalid ones, a pinned overflow, huge budgets', () => {
    const requests: unknown[] = [
      null,
      { now: 1, budget: 1.5, blocks: [] },
      { now: 1, budget: 10, blocks: [{ block_id: 'a', source: 'memory', content: 'x'.repeat(80), priority: 1, pinned: true }] },
      { now: 1, budget: Number.MAX_SAFE_INTEGER, blocks: [{ block_id: 'a', source: 'memory', content: 'x', priority: 1 }] },
      { profile: 'ranked', now: 1, budget: 40, blocks: [{ block_id: 'a', source: 'memory', content: 'x', priority: 1, created_at: -1 }] },
    ];
    for (const req of requests) for (const caps of CAPABILITY_SETS) expect(same(req, caps), JSON.stringify(req)).toBe(true);
  });
});
