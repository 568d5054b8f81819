/**
 * The diagnosis judges other answers with agreesWithReference; it must say "agrees" exactly when
 * the differential property passes the same answer, or a diagnosis would count as reproduced a
 * failure the property never reported (or the other way round).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreesWithReference } from '../../judging/properties/agrees.js';
import { readAnswer, viewsAgree } from '../../judging/properties/answers.js';
import { genContext, request } from '../../judging/properties/arbitraries.js';
import type { PropertyEnv } from '../../judging/properties/property.js';
import { PROPERTIES, referenceAnswer } from '../../judging/properties/catalog.js';
import type { Manifest, Outcome } from '../../protocol/types.js';
import { CAPABILITIES } from '../../reference/index.js';

const FULL: Manifest = { name: 'full', version: '1', profiles: ['tiered', 'ranked'], capabilities: [...CAPABILITIES] };
const gen = genContext(FULL);
const differential = PROPERTIES.find((p) => p.name === 'differential')!;

/** Ways to change an answer, some of which the differential property lets through (a reason worded otherwise, -0 for 0). */
const CHANGES: ((v: Record<string, unknown>) => void)[] = [
  () => {},
  (v) => (v.included = [...(v.included as string[])].reverse()),
  (v) => (v.context = `${v.context as string}x`),
  (v) => (v.estimated_tokens = (v.estimated_tokens as number) === 0 ? -0 : (v.estimated_tokens as number) + 1),
  (v) => (v.omissions = (v.omissions as { reason: string }[]).map((o) => ({ ...o, reason: o.reason.toUpperCase() }))),
  (v) => (v.omissions = (v.omissions as { reason: string }[]).map((o) => ({ ...o, reason: `${o.reason} (said otherwise)` }))),
  (v) => (v.warnings = [...((v.warnings as unknown[] | undefined) ?? []), { code: 'W-EXTRA' }]),
  (v) => (v.generated_at = v.generated_at === 0 ? -0 : v.generated_at),
];

describe('agreesWithReference', () => {
  it('agrees with an answer exactly when the differential property passes it', () => {
    let both = 0;
    let neither = 0;
    fc.assert(
      fc.property(request(gen), fc.nat(CHANGES.length - 1), (req, change) => {
        const reference = referenceAnswer(req, gen.capabilities);
        if (reference.kind !== 'result') return;
        const value = structuredClone(reference.value) as unknown as Record<string, unknown>;
        CHANGES[change]!(value);
        const outcome: Outcome = { kind: 'result', value };
        const agrees = agreesWithReference(req, gen)(outcome);
        const env = { gen, timeoutMs: 1000 } as PropertyEnv;
        let passes = true;
        try {
          // As the property's check reads it: the answer read (schema included), then verified.
          differential.verify!(env, req, [readAnswer(outcome, req, gen.capabilities)]);
        } catch {
          passes = false;
        }
        expect(agrees).toBe(passes);
        if (passes) both++;
        else neither++;
      }),
      { numRuns: 600, seed: 31 },
    );
    expect(both).toBeGreaterThan(50);
    expect(neither).toBeGreaterThan(50);
  });

  it('judges views as the property does: an absent member and an undefined one alike, -0 and 0 apart only where the view keeps them', () => {
    expect(viewsAgree({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(isDeepStrictEqual({ a: 1, b: undefined }, { a: 1 })).toBe(false);
    expect(viewsAgree({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });
});
