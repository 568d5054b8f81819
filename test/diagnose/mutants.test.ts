/**
 * The catalogue covers every defect the kit's own tests make: the switches
 * of the broken tiered core (an implementation written apart from the
 * defect model), the output habits layered on it, and the capability
 * defects made by bending the reference (test/fixtures/broken/
 * known-defects.ts). Each, run over the corpus, gets its catalogue entry as
 * the top diagnosis.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { diagnose } from '../../diagnosis/index.js';
import type { Manifest } from '../../protocol/types.js';
import { assemble as referenceAssemble } from '../../reference/index.js';
import { ALL, blocks, capabilityDefects, constraints, DEFECTS, habits, MARKER_DEFECTS, rewrittenReference, same } from '../fixtures/known-defects.js';
import type { Assemble, Req } from '../fixtures/known-defects.js';
import { mutant } from '../fixtures/broken/mutant.js';
import { CORE, MEMO, observe } from './helpers.js';

/** The catalogue entry (or family) each of the kit's defects is. */
const MUTANT_ENTRIES: Record<string, string> = {
  'prefix cut in a tier': 'prefix-cut-in-a-tier',
  'truncating fit': 'truncating-fit',
  'UTF-16 lengths': 'utf16-lengths',
  'tier split 50/15/20/15': 'tier-split-50-15-20-15',
  'tier split 40/20/20/20': 'tier-split-40-20-20-20',
  'ties by input order': 'ties-by-input-order',
  'inclusive expiry': 'inclusive-expiry',
  'URGENT in content boosts priority': 'content-changes-priority',
  'no overflow pool': 'no-overflow-pool',
  'rounding remainder pooled': 'remainder-in-pool',
  '3 characters per token': 'chars-per-token-3',
  '5 characters per token': 'chars-per-token-5',
  'ceil estimate': 'ceil-estimate',
  'render by priority only': 'render-by-priority-only',
  'case-insensitive sources': 'case-insensitive-sources',
  'UTF-16 id order': 'utf16-id-order',
  'priorities in a total order, -0 below 0': 'signed-zero-order',
  'hyphens in sources read as underscores': 'hyphens-read-as-underscores',
  'near-duplicates dropped': 'near-duplicates-dropped',
};

const HABIT_ENTRIES: Record<string, string> = {
  'trailing newline': 'context-suffix',
  'placeholder for an empty context': 'empty-context-placeholder',
  'a preamble': 'preamble',
  'HTML-escaped content': 'content-html-escaped',
  'control characters stripped': 'control-characters-stripped',
  'NFC normalization': 'content-nfc-normalized',
  'bidi and zero-width characters stripped': 'invisible-characters-stripped',
  'trimmed content': 'content-trimmed',
  'a bullet instead of the middle dot': 'header-separator',
  'single newline between blocks': 'block-joiner',
  'an instructions member': 'extra-result-members',
  'expired omissions dropped': 'expired-omissions-dropped',
  'omissions sorted by id': 'omissions-sorted-by-id',
  'total_budget as spent': 'total-budget-as-spent',
  'estimate counts headers': 'estimate-of-the-context',
  'invalid requests answered': 'invalid-requests-answered',
  'pinned_overflow for every invalid request': 'invalid-request-as-pinned-overflow',
  'non-finite numbers read as 0 and accepted': 'non-finite-read-as-zero',
};

const CAPABILITY_ENTRIES: Record<string, string> = {
  'pinned ignored': 'pinned-ignored',
  'exclude ignored': 'exclude-ignored',
  'must_include ignored': 'must-include-ignored',
  'max_segments ignored': 'max-segments-ignored',
  'max_segments off by one': 'max-segments-off-by-one',
  'preferences ignored': 'preferences-ignored',
  'preferences swapped': 'preferences-swapped',
  'lifecycle ignored': 'lifecycle-ignored',
  'superseded included by default': 'superseded-included-by-default',
  'disputed omitted by default': 'disputed-omitted-by-default',
  'stale treated as superseded': 'stale-treated-as-superseded',
  'expired pinned blocks still count': 'no-markers+expired-pinned-counted',
  'generated_at from a clock': 'generated-at-not-now+extra-result-members',
  'truncated for any omission': 'truncated-for-any-omission+extra-result-members',
  'no truncated warning': 'no-truncated-warning',
  'no empty_context warning': 'no-empty-context-warning',
  'no required_ref_omitted warning': 'no-required-warning',
  'no lifecycle warnings': 'no-lifecycle-warnings',
  'a retrieval warning emitted': 'retrieval-warning-emitted',
  'segment score is tokens': 'segment-score-is-tokens',
  'every segment reason tier': 'every-segment-reason-tier',
  'pinned rendered in id order': 'pinned-included-in-id-order',
  'no markers at all': 'no-markers',
  'content leaked into the marker': 'content-in-marker',
  'markers before everything': 'markers-before-everything',
  'a marker for an expired block too': 'marker-for-expired',
};

/** The targeted defects of test/cases/mutants.test.ts, on the rewritten reference. */
const dropNulls = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== null || k === 'max_segments'));
const TARGETED: [string, Assemble, string][] = [
  [
    'ranked: a superseded block packed as active',
    rewrittenReference((r) => ((r as { profile?: string }).profile === 'ranked' ? blocks(({ status: _s, ...b }) => b)(r) : r)),
    'ranked-ignores-what-it-cannot-honour',
  ],
  [
    'null read as absent',
    rewrittenReference((r) => constraints(dropNulls)(blocks(dropNulls)(dropNulls(r as Record<string, unknown>) as Req))),
    'null-read-as-absent',
  ],
  [
    'a source rewritten in the header',
    rewrittenReference(same, (a) => ({ ...a, context: a.context.replace(/\[tool-results /g, '[tool_results ') })),
    'header-source-rewritten',
  ],
];

/** The entries named by the top cause, or by the top `count` causes when an implementation has that many defects. */
async function top(assemble: Assemble, manifest: Manifest, count = 1): Promise<{ named: string[]; line: string }> {
  const observations = await observe(fromFunctions(assemble, undefined, manifest), manifest);
  const d = diagnose(observations, { memo: MEMO });
  expect(observations.some((o) => !o.passed)).toBe(true);
  return {
    named: [...new Set((d?.causes ?? []).slice(0, count).flatMap((c) => c.defects))],
    line: d ? d.causes.map((c) => `${c.id} ${c.explains}/${c.failing}`).join(', ') : 'no diagnosis',
  };
}

describe('the broken tiered core (an implementation apart from the model): each switch is its catalogue entry', () => {
  it('maps every switch', () => expect(Object.keys(DEFECTS).sort()).toEqual(Object.keys(MUTANT_ENTRIES).sort()));
  it.each(Object.entries(MUTANT_ENTRIES))('%s', async (name, id) => {
    const { named, line } = await top(mutant(DEFECTS[name]!) as Assemble, CORE);
    expect(named, line).toEqual([id]);
  });
});

describe('an output habit on the correct core is its catalogue entry', () => {
  const all = habits(mutant({}) as Assemble);
  it('maps every habit', () => expect(Object.keys(all).sort()).toEqual(Object.keys(HABIT_ENTRIES).sort()));
  it.each(Object.entries(HABIT_ENTRIES))('%s', async (name, id) => {
    const { named, line } = await top(all[name]!, CORE);
    expect(named, line).toEqual([id]);
  });
});

/**
 * Some rewritten references have more than their one defect, and then each is
 * named among the first causes, the intended one first or with the other:
 * the expired-pinned double answers through the reference's default
 * capabilities (no omission_markers, though the manifest declares them); the
 * clock and the truncated doubles add their member to ranked results too
 * (RANK-7: a ranked result has the core members only), and the truncated one
 * with the value the ranked answer computes, true or false, which the
 * extra-member family models as two constant values (two causes, before the
 * intended one); the lifecycle double makes every status active, invalid and
 * ranked ones too (a third and fourth cause).
 */
describe('a capability defect of the rewritten reference is its catalogue entry', () => {
  const all = { ...capabilityDefects(), ...MARKER_DEFECTS };
  it('maps every rewritten reference', () => expect(Object.keys(all).sort()).toEqual(Object.keys(CAPABILITY_ENTRIES).sort()));
  it.each(Object.entries(CAPABILITY_ENTRIES))('%s', async (name, id) => {
    const expected = id.split('+');
    const { named, line } = await top(all[name]!, ALL, name === 'truncated for any omission' ? 3 : expected.length);
    expect(named, line).toEqual(expect.arrayContaining(expected));
  });
  it.each(TARGETED)('%s', async (_name, assemble, id) => {
    const { named, line } = await top(assemble, ALL);
    expect(named, line).toEqual([id]);
  });
  it('the reference itself through the bending harness gets no diagnosis', async () => {
    const observations = await observe(
      fromFunctions((req) => referenceAssemble(req, { capabilities: ALL.capabilities as never }), undefined, ALL),
      ALL,
    );
    expect(diagnose(observations, { memo: MEMO })).toBeUndefined();
  });
});
