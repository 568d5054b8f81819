/**
 * omission_markers in the reference (SPEC 8.5): markers change nothing but
 * the context (MRK-4), the context is exactly what the judge's own reading of
 * MRK-1..3 (judging/markers.ts, written from the spec) expects, and the
 * pinned prefix is the same at every budget (MRK-3).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markedContext } from '../../judging/markers.js';
import { request } from '../../judging/properties/arbitraries.js';
import { assemble, DEFAULT_CAPABILITIES, isErrorAnswer, isExpired } from '../../reference/index.js';
import type { Capability, Result } from '../../reference/index.js';

const PLAIN = DEFAULT_CAPABILITIES;
const MARKED: readonly Capability[] = [...DEFAULT_CAPABILITIES, 'omission_markers'];
const gen = { profiles: ['tiered'], capabilities: [...PLAIN] };

describe('omission markers', () => {
  it('change nothing but the context, and the context is the spec reading of MRK-1..3 (2,000 runs)', () => {
    fc.assert(
      fc.property(request(gen), (req) => {
        const plain = assemble(req, { capabilities: PLAIN });
        const marked = assemble(req, { capabilities: MARKED });
        if (isErrorAnswer(plain)) {
          expect(marked).toEqual(plain);
          return;
        }
        const m = marked as Result;
        expect({ ...m, context: plain.context }).toEqual(plain);
        const want = markedContext(req, m.included, m.omissions)!;
        expect(m.context).toBe(want.withMarkers);
        expect(want.withoutMarkers).toBe(plain.context);
        // With no block omitted for room, the context is byte-identical (MRK-4).
        if (want.markers === 0) expect(m.context).toBe(plain.context);
      }),
      { numRuns: 2000, seed: 16 },
    );
  });

  it('keep the pinned prefix at every budget that answers', () => {
    fc.assert(
      fc.property(request({ profiles: ['tiered'], capabilities: ['pinned'] }), (req) => {
        const pinned = req.blocks.filter((b) => b.pinned === true && !isExpired(req.now, b.created_at ?? 0, b.ttl_seconds ?? 0));
        if (pinned.length === 0) return;
        const prefix = pinned.map((b) => `[${b.source} \u00b7 ${b.block_id}]\n${b.content}`).join('\n\n');
        for (const budget of [0, 5, 20, 80, 1000]) {
          const r = assemble({ ...req, budget }, { capabilities: MARKED });
          if (isErrorAnswer(r)) continue; // pinned_overflow: nothing to keep
          expect(r.context.startsWith(prefix)).toBe(true);
        }
      }),
      { numRuns: 1000, seed: 16 },
    );
  });

  it('expect the pinned blocks in input order (PIN-4), whatever order an answer lists them in', () => {
    const block = (id: string, pinned: boolean) => ({ block_id: id, source: 'memory', content: id, priority: 1, pinned });
    const req = { now: 0, budget: 100, blocks: [block('p-z', true), block('p-a', true), block('b-1', false)] };
    // An answer that lists its pinned blocks by id: the context shown as expected stays in the spec's render order.
    const want = markedContext(req, ['p-a', 'p-z', 'b-1'], [])!;
    expect(want.withMarkers).toBe('[memory \u00b7 p-z]\np-z\n\n[memory \u00b7 p-a]\np-a\n\n[memory \u00b7 b-1]\nb-1');
  });
});
