/**
 * Kept draws (judging/properties/drawn.ts) stand for drawing afresh: a
 * property's input, or a request drawn as the first part of one, is the value
 * a fresh draw gives at that generator state, the generator is left where a
 * fresh draw leaves it (so what is drawn after it is as ever), and a failure
 * shrinks to the same counterexample in the same steps.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillerChoice, genContext, request, unknownMembers } from '../../judging/properties/arbitraries.js';
import type { GenContext } from '../../judging/properties/arbitraries.js';
import { keptDraws } from '../../judging/properties/drawn.js';
import { PROPERTIES } from '../../judging/properties/catalog.js';
import { describe as referenceManifest } from '../../reference/index.js';
import type { Manifest } from '../../protocol/types.js';

const RUNS = 300;
/** Per property, in the test that draws every property's input a dozen times over. */
const PROPERTY_RUNS = 100;
const all = referenceManifest() as Manifest;
/**
 * A context of its own per test (draws are kept per context), so that no test finds the draws of another kept:
 * each declares its own chars_per_token, from 1 to 16 but the specification's 4.
 */
const OWN = [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
// Past the divisors there are, a declared overhead tells contexts apart (the any level's requests read it).
const contextFor = (n: number): GenContext =>
  genContext({
    ...all,
    constants: { chars_per_token: OWN[n % OWN.length]! },
    design: { estimator: { unit: 'code_points', overhead: Math.floor(n / OWN.length) } },
  } as Manifest);

/** The request, then a number drawn after it: a fresh draw against one through the kept draws. */
const fresh = (gen: GenContext) => fc.tuple(request(gen), fc.nat(1_000_000));
const viaKept = (gen: GenContext) => fc.tuple(keptDraws(request, gen), fc.nat(1_000_000));

describe('kept draws', () => {
  it('give the values a fresh draw gives, whole and as the first part of an input, drawn first and found kept', () => {
    const gen = contextFor(0);
    for (const seed of [1, 2, 20261202]) {
      const expected = fc.sample(fresh(gen), { numRuns: RUNS, seed });
      // First through the arbitrary that keeps them, then found kept: the same requests, and the numbers after them.
      expect(fc.sample(viaKept(gen), { numRuns: RUNS, seed })).toEqual(expected);
      expect(fc.sample(viaKept(gen), { numRuns: RUNS, seed })).toEqual(expected);
      expect(fc.sample(keptDraws(request, gen), { numRuns: RUNS, seed })).toEqual(expected.map(([r]) => r));
    }
  });

  it("give each property's input as a fresh draw gives it, whatever the other properties drew before", () => {
    // Each property's input as the runner draws it: its arbitrary, kept (judging/properties/index.ts).
    const input = (def: (typeof PROPERTIES)[number], gen: GenContext) => keptDraws(def.arbitrary, gen);
    PROPERTIES.forEach((def, n) => {
      // A context of its own: nothing is kept in it yet, so the first sampling draws afresh.
      const gen = contextFor(3 + n);
      const first = fc.sample(input(def, gen), { numRuns: PROPERTY_RUNS, seed: 7 });
      for (const other of PROPERTIES) fc.sample(input(other, gen), { numRuns: PROPERTY_RUNS, seed: 7 });
      expect(fc.sample(input(def, gen), { numRuns: PROPERTY_RUNS, seed: 7 }), def.name).toEqual(first);
    });
    // And written out with plain draws, for the two whose request comes first in a record.
    const gen = contextFor(2);
    const byName = (name: string) => PROPERTIES.find((p) => p.name === name)!;
    for (const def of PROPERTIES) fc.sample(input(def, gen), { numRuns: PROPERTY_RUNS, seed: 8 });
    expect(fc.sample(byName('content-blindness').arbitrary(gen), { numRuns: PROPERTY_RUNS, seed: 8 })).toEqual(
      fc.sample(fc.record({ request: request(gen), fillers: fillerChoice }), { numRuns: PROPERTY_RUNS, seed: 8 }),
    );
    expect(fc.sample(byName('unknown-members').arbitrary(gen), { numRuns: PROPERTY_RUNS, seed: 8 })).toEqual(
      fc.sample(fc.record({ request: request(gen), extras: unknownMembers }), { numRuns: PROPERTY_RUNS, seed: 8 }),
    );
  });

  it('shrink a failure to the same counterexample in the same steps', async () => {
    const gen = contextFor(1);
    // Fails on any request with three blocks or more: shrinking must take blocks and contents away.
    const failsOn = ([r]: [{ blocks: unknown[] }, number]): boolean => r.blocks.length < 3;
    for (const seed of [3, 4]) {
      const a = fc.check(fc.property(fresh(gen), failsOn), { seed, numRuns: RUNS });
      fc.sample(viaKept(gen), { numRuns: RUNS, seed }); // kept before the run
      const b = fc.check(fc.property(viaKept(gen), failsOn), { seed, numRuns: RUNS });
      expect(a.failed).toBe(true);
      expect(b.counterexample).toEqual(a.counterexample);
      expect(b.counterexamplePath).toBe(a.counterexamplePath);
      expect(b.numShrinks).toBe(a.numShrinks);
    }
  });
});
