/**
 * The defect model with no defect (every hook at the spec's reading) is the reference, answer for
 * answer: for every capability set and both profiles, with and without
 * declared constants, over random requests and over the corpus. Equal means
 * the same JSON text and deep-equal values (so -0 stays -0); a difference is
 * reported where it is (the members that differ, and each side's first one),
 * so a spec change that reached one of the two says which part it missed.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../judging/cases/load.js';
import { differingPaths } from '../../vocabulary/defect.js';
import { modelAssemble } from '../../diagnosis/index.js';
import { request } from '../../judging/properties/arbitraries.js';
import type { DeclaredConstants } from '../../protocol/assembly.js';
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

/** Where the model's answer differs from the reference's; undefined when they are the same. */
function difference(req: unknown, capabilities: readonly Capability[], constants?: DeclaredConstants): string | undefined {
  const reference = assemble(req, { capabilities, ...(constants ? { constants } : {}) });
  const model = modelAssemble(req, { capabilities, constants });
  if (JSON.stringify(model) === JSON.stringify(reference) && isDeepStrictEqual(model, reference)) return undefined;
  const paths = differingPaths(reference, model);
  const at = paths[0];
  // -0 against 0 is the one difference differingPaths does not see: JSON writes both as 0.
  if (at === undefined) return 'they differ in the sign of a zero';
  const read = (v: unknown): string => JSON.stringify(at === '/' ? v : valueAt(v, at)) ?? 'nothing';
  return `they differ at ${paths.join(', ')}; at ${at} the reference has ${read(reference)}, the model ${read(model)}`;
}

/** The value at a JSON Pointer of differingPaths. */
function valueAt(v: unknown, pointer: string): unknown {
  let x = v;
  for (const token of pointer.slice(1).split('/')) {
    const k = token.replace(/~1/g, '/').replace(/~0/g, '~');
    x = typeof x === 'object' && x !== null && Object.hasOwn(x, k) ? (x as Record<string, unknown>)[k] : undefined;
  }
  return x;
}

/** For fast-check: true, or the difference as the error it reports with the counterexample. */
function same(req: unknown, capabilities: readonly Capability[], constants?: DeclaredConstants): boolean {
  const d = difference(req, capabilities, constants);
  if (d !== undefined) throw new Error(d);
  return true;
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
      const differ = cases.flatMap((c) => {
        const d = difference(c.request, caps) ?? difference(c.request, caps, TUNED);
        return d === undefined ? [] : [`${c.id}: ${d}`];
      });
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
    for (const req of requests) for (const caps of CAPABILITY_SETS) expect(difference(req, caps), JSON.stringify(req)).toBeUndefined();
  });
});
