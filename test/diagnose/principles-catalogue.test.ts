/**
 * "Not this design" over the whole catalogue (SPEC section 18, the diagnosis):
 * for every defect, an implementation with exactly that defect is run over the
 * corpus and diagnosed with that defect's own model left out, as if it were a
 * defect nobody had modelled. Each defect that breaks a design-agnostic
 * principle then gets that principle named, with its requirement and how many
 * failures it explains; a defect that breaks none (a difference of tiered's
 * exact rules) gets none named. The principles each defect breaks are written
 * here from the spec, one reason per group, not read off the kit's output.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE, FAMILIES } from '../../diagnosis/index.js';
import type { Defects } from '../../diagnosis/index.js';
import { readCauses } from '../../running/likely-cause.js';
import type { Manifest } from '../../protocol/types.js';
import { FAMILY_EXAMPLES, MEMO, modelImplementation, observe } from './helpers.js';

/**
 * Every capability the principles read; omission markers are left out, as the
 * principles leave a run with them to the exact profiles (SPEC section 18's decisions).
 */
const MANIFEST: Manifest = {
  name: 'model',
  version: '0',
  profiles: ['tiered', 'ranked'],
  capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned'],
};

/** The render's principles: under tiered they are design differences (REN-2), told apart from defects by the design line. */
const RENDER = new Set(['ANY-10', 'ANY-11']);

const BREAKS: Readonly<Record<string, readonly string[]>> = {
  // ANY-1: a block cut to what is left, or a content changed on its way into the context, is no longer whole and verbatim.
  'truncating-fit': ['ANY-1'],
  'content-html-escaped': ['ANY-1'],
  'content-nfc-normalized': ['ANY-1'],
  'content-trimmed': ['ANY-1'],
  'control-characters-stripped': ['ANY-1'],
  'invisible-characters-stripped': ['ANY-1'],
  // ANY-2: fewer than 4 characters counted per token keeps more than the budget holds under NUM-2; a tier budget rounded up,
  // an estimate that counts more than it admits, a required or pinned block kept past what is left, and a total_budget
  // that is not the request's budget are each an answer over the budget or about it.
  'chars-per-token-5': ['ANY-2'],
  'chars-per-token-6': ['ANY-2'],
  'chars-per-token-8': ['ANY-2'],
  'tier-budget-ceil': ['ANY-2'],
  'estimate-of-the-context': ['ANY-2'],
  'required-forced': ['ANY-2'],
  'pinned-cost-not-subtracted': ['ANY-2'],
  'total-budget-as-spent': ['ANY-2'],
  // ANY-3: an expired block left out of omissions is dropped without a word.
  'expired-omissions-dropped': ['ANY-3'],
  // ANY-5: an expired block included.
  'expired-required-kept': ['ANY-5'],
  // ANY-6: a live pinned block dropped (ignored, trimmed to fit, or a ttl of 0 read as expired).
  'pinned-ignored': ['ANY-6'],
  'pinned-overflow-trimmed': ['ANY-6'],
  'ttl-zero-expires': ['ANY-4', 'ANY-6'],
  // ANY-4: a reason false of its block: a live block called expired (a ttl of 0 read as expired, the boundary instant read
  // as past it), a status the block does not have.
  'inclusive-expiry': ['ANY-4'],
  'stale-treated-as-superseded': ['ANY-4'],
  // ANY-13: a valid request refused: pinned_overflow with no live pinned block to overflow, invalid_request for an overflow,
  // or for unknown members, which every design ignores (REQ-3, ANY-9).
  'expired-pinned-kept': ['ANY-13'],
  'pinned-overflow-as-invalid-request': ['ANY-13'],
  'unknown-members-refused': ['ANY-13'],
};

interface Named {
  principles: string[];
  lines: string[];
  failing: number;
}

/** The run of one defect, diagnosed with its own model left out: the principles named outside the render's, and the lines. */
async function withoutItsModel(id: string, defects: Defects): Promise<Named | undefined> {
  const observations = await observe(modelImplementation(defects, MANIFEST), MANIFEST);
  const read = await readCauses(observations, false, { memo: MEMO, leaveOut: new Set([id]) });
  if (!read) return undefined;
  const principles = read.principles.flatMap((l) => /\((ANY-\d+)\): explains \d+ of \d+ failures?$/.exec(l)?.[1] ?? []);
  return { principles: principles.filter((p) => !RENDER.has(p)).sort(), lines: read.principles, failing: read.diagnosis.failing };
}

const ENTRIES = CATALOGUE.filter((e) => !e.declaredOnly);

describe('every defect of the catalogue, its own model left out', () => {
  it('the table above names only entries of the catalogue', () => {
    expect(Object.keys(BREAKS).filter((id) => !ENTRIES.some((e) => e.id === id))).toEqual([]);
  });

  it.each(ENTRIES.map((e) => [e.id, e.defects] as const))('%s', async (id, defects) => {
    const named = await withoutItsModel(id, defects);
    const expected = BREAKS[id] ?? [];
    if (named === undefined) {
      // Nothing fails under this manifest (the omission markers' defects): nothing to name, and nothing was expected.
      expect(expected).toEqual([]);
      return;
    }
    expect(named.principles, named.lines.join('\n')).toEqual([...expected].sort());
    for (const p of expected) {
      const line = named.lines.find((l) => l.includes(`(${p}): explains `));
      const [n, of] = /explains (\d+) of (\d+)/
        .exec(line ?? '')!
        .slice(1)
        .map(Number);
      expect(n).toBeGreaterThan(0);
      expect(of).toBe(named.failing);
    }
  });

  it.each(Object.entries(FAMILY_EXAMPLES))('%s (a family): no principle outside the render is named', async (id, defects) => {
    expect(FAMILIES.some((f) => f.id === id)).toBe(true);
    expect((await withoutItsModel(id, defects))?.principles ?? []).toEqual([]);
  });
});
