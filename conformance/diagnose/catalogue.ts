/**
 * The catalogue of known defects: each a named, exact way to get the spec
 * wrong, with the requirements it breaks, one sentence a vendor understands,
 * and the hooks (hooks.ts) or switches of the model (model.ts) that make an
 * implementation with it. A defect that overrides hooks is its own module in
 * defects/, registered from that folder (defect.ts); the entries below set
 * switches. Sentences that quote the specification's numbers take them from
 * its design (reference/design.ts). Entries compose: two entries switched on together are an
 * implementation with both, unless they set the same switch (conflicting).
 *
 * Most entries are fixed. A family (below the list) stands for a defect with
 * a value the kit cannot guess in advance (the text of a preamble, a source
 * moved to another tier): its instances are read off the failing answers of
 * a run, and each is then an exact model like any other entry.
 */
import { CHARS_PER_TOKEN, TIER_PERCENT } from '../../reference/index.js';
import type { Tier } from '../../protocol/types.js';
import { DEFECTS_DIR, REGISTERED, registerDefectsIn, registerInOrder } from './defect.js';
import type { CatalogueEntry, Feature, Section } from './defect.js';

export type { CatalogueEntry, Feature, Section } from './defect.js';

const SECTION_REACH: Readonly<Record<Section, readonly Feature[]>> = {
  validation: ['invalid'],
  counting: ['valid'],
  estimate: ['valid'],
  tiers: ['tiered'],
  pool: ['tiered'],
  expiry: ['valid'],
  ordering: ['tiered'],
  rendering: ['tiered'],
  omissions: ['valid'],
  pinned: ['pinned'],
  constraints: ['constraints'],
  lifecycle: ['status'],
  working_context: ['working_context'],
  markers: ['omission_markers'],
  ranked: ['ranked'],
  constants: ['valid'],
};

/** The features a request needs to show this entry; undefined: any request may. */
export function reachOf(e: Pick<CatalogueEntry, 'section' | 'when'>): readonly Feature[] | undefined {
  return e.when ?? SECTION_REACH[e.section];
}

const split = (w: number, e: number, l: number, k: number): Record<Tier, number> => ({ working: w, episodic: e, longterm: l, knowledge: k });
const splitLabel = (p: Readonly<Record<Tier, number>>): string => `${p.working}/${p.episodic}/${p.longterm}/${p.knowledge}`;
const SPEC_SPLIT = splitLabel(TIER_PERCENT);

/** Undeclared splits: the mutants' two, the common even and tuned ones, and every swap of two of the spec's shares. */
function splitEntries(): CatalogueEntry[] {
  const shares = [split(50, 15, 20, 15), split(40, 20, 20, 20), split(25, 25, 25, 25), split(50, 20, 20, 10)];
  const tiers = Object.keys(TIER_PERCENT) as Tier[];
  for (let i = 0; i < tiers.length; i++) {
    for (let j = i + 1; j < tiers.length; j++) {
      const p = { ...TIER_PERCENT };
      [p[tiers[i]!], p[tiers[j]!]] = [p[tiers[j]!], p[tiers[i]!]];
      shares.push(p);
    }
  }
  return shares.map((p) => ({
    id: `tier-split-${p.working}-${p.episodic}-${p.longterm}-${p.knowledge}`,
    section: 'constants',
    requirements: ['TIER-2', 'DECL-1'],
    summary: `the tier budgets are split ${splitLabel(p)} (working/episodic/longterm/knowledge) without declaring it; TIER-2 says ${SPEC_SPLIT}, and another split must be declared in the manifest (section 17)`,
    defects: { tierPercent: p },
    when: ['tiered'],
  }));
}

const charsPerTokenEntries = (): CatalogueEntry[] =>
  [1, 2, 3, 5, 6, 8].map((n) => ({
    id: `chars-per-token-${n}`,
    section: 'constants',
    requirements: ['NUM-2', 'DECL-1'],
    summary: `the estimate divides by ${n} characters per token without declaring it; NUM-2 divides by ${CHARS_PER_TOKEN}, and another divisor must be declared in the manifest (section 17)`,
    defects: { charsPerToken: n },
  }));

/** The entries that set switches of the model, in catalogue order. */
const SWITCH_ENTRIES: readonly CatalogueEntry[] = [
  // ------------------------------------------------------------ validation (section 3, REQ-4, errors)
  {
    id: 'null-read-as-absent',
    section: 'validation',
    requirements: ['REQ-4', 'VAL-5', 'VAL-6', 'VAL-7'],
    summary: 'a member given as null is read as absent and takes its default; REQ-4 says null is a value, invalid for every optional member but max_segments',
    defects: { nullAsAbsent: true },
  },
  {
    id: 'non-finite-read-as-zero',
    section: 'validation',
    requirements: ['VAL-8', 'VAL-1'],
    summary: 'NaN and Infinity are read as 0 and the request is answered; VAL-8 makes them invalid wherever a number is expected',
    defects: { nonFiniteAsZero: true },
  },
  {
    id: 'duplicate-ids-deduplicated',
    section: 'validation',
    requirements: ['VAL-4'],
    summary: 'a repeated block_id is deduplicated (the first block kept) instead of refused; VAL-4 makes the request invalid',
    defects: { duplicateIdsKeepFirst: true },
  },
  {
    id: 'fractional-budget-floored',
    section: 'validation',
    requirements: ['VAL-2'],
    summary: 'a fractional budget is rounded down and answered; VAL-2 accepts integers only (120.0 is 120, 120.5 is invalid)',
    defects: { fractionalBudgetFloored: true },
  },
  {
    id: 'negative-ttl-accepted',
    section: 'validation',
    requirements: ['VAL-5'],
    summary: 'a negative ttl_seconds is accepted as never expiring; VAL-5 requires ttl_seconds >= 0',
    defects: { negativeTtlAsZero: true },
  },
  {
    id: 'status-case-insensitive',
    section: 'validation',
    requirements: ['VAL-5'],
    summary: 'a status is matched without case ("Active" read as active); VAL-5 takes the four statuses exactly',
    defects: { statusCaseInsensitive: true },
  },
  {
    id: 'unknown-members-refused',
    section: 'validation',
    requirements: ['REQ-3'],
    summary: 'a request with a member the spec does not define is refused; REQ-3 says such members are ignored',
    defects: { unknownMembersRefused: true },
    when: ['valid', 'invalid'],
  },
  {
    id: 'ranked-ignores-what-it-cannot-honour',
    section: 'validation',
    requirements: ['VAL-9'],
    summary: 'in profile ranked, constraints, pinned blocks and lifecycle statuses are silently ignored; VAL-9 makes such a request invalid',
    defects: { rankedDropsWhatItCannotHonour: true },
  },
  {
    id: 'invalid-requests-answered',
    section: 'validation',
    requirements: ['ERR-1', 'ERR-2', 'VAL-1'],
    summary: 'an invalid request is answered with an empty result; section 3 requires the error invalid_request',
    defects: { invalidAnsweredEmpty: true },
  },
  {
    id: 'invalid-request-as-pinned-overflow',
    section: 'validation',
    requirements: ['ERR-1'],
    summary: 'an invalid request is answered with the error pinned_overflow; section 3 requires invalid_request',
    defects: { invalidAsPinnedOverflow: true },
  },

  // ------------------------------------------------------------ counting (NUM-1) and the estimate (NUM-2)
  // Declared constants (section 17). Before the undeclared changes: under a declaration they can be the same implementation
  // (ranked on the declared 3 characters per token is chars-per-token-3 there), and the declared reading is the one to name.
  {
    id: 'declared-chars-per-token-ignored',
    section: 'constants',
    requirements: ['DECL-2', 'NUM-2'],
    summary: `the declared chars_per_token is not used (the estimate divides by ${CHARS_PER_TOKEN}); DECL-2 reads NUM-2 with the declared divisor`,
    defects: { ignoreDeclaredCharsPerToken: true },
    declaredOnly: true,
    when: ['declared'],
  },
  {
    id: 'declared-split-ignored',
    section: 'constants',
    requirements: ['DECL-2', 'TIER-2'],
    summary: `the declared tier_fractions are not used (the split is ${SPEC_SPLIT}); DECL-2 reads TIER-2 with the declared shares`,
    defects: { ignoreDeclaredSplit: true },
    declaredOnly: true,
    when: ['declared'],
  },
  {
    id: 'declared-sources-ignored',
    section: 'constants',
    requirements: ['DECL-2', 'TIER-1'],
    summary: 'the declared source_to_tier is not used; DECL-2 reads TIER-1 with the declared map',
    defects: { ignoreDeclaredSources: true },
    declaredOnly: true,
    when: ['declared'],
  },
  {
    id: 'ranked-takes-declared-chars-per-token',
    section: 'constants',
    requirements: ['DECL-3', 'RANK-2'],
    summary: "profile ranked uses the declared chars_per_token; DECL-3 keeps ranked on NUM-2's 4 (its header costs 29)",
    defects: { rankedTakesDeclaredCharsPerToken: true },
    declaredOnly: true,
    when: ['ranked'],
  },
  ...charsPerTokenEntries(),

  // ------------------------------------------------------------ tiers (TIER-1, TIER-2, NUM-3)
  ...splitEntries(),
  {
    id: 'case-insensitive-sources',
    section: 'tiers',
    requirements: ['TIER-1'],
    summary: 'source names are matched without case ("Memory" read as memory); TIER-1 is case-sensitive, so "Memory" is working',
    defects: { caseInsensitiveSources: true },
  },
  {
    id: 'hyphens-read-as-underscores',
    section: 'tiers',
    requirements: ['TIER-1'],
    summary: 'a hyphen in a source is read as an underscore ("waf-info" as waf_info); TIER-1 matches names exactly, so "waf-info" is working',
    defects: { hyphensAsUnderscores: true },
  },
  {
    id: 'unlisted-sources-in-knowledge',
    section: 'tiers',
    requirements: ['TIER-1'],
    summary: 'a source the map does not list goes to the knowledge tier; TIER-1 puts every other source in working',
    defects: { unlistedTier: 'knowledge' },
  },
  {
    id: 'unlisted-sources-in-longterm',
    section: 'tiers',
    requirements: ['TIER-1'],
    summary: 'a source the map does not list goes to the longterm tier; TIER-1 puts every other source in working',
    defects: { unlistedTier: 'longterm' },
  },
  {
    id: 'unlisted-sources-in-episodic',
    section: 'tiers',
    requirements: ['TIER-1'],
    summary: 'a source the map does not list goes to the episodic tier; TIER-1 puts every other source in working',
    defects: { unlistedTier: 'episodic' },
  },
  {
    id: 'prefix-cut-in-a-tier',
    section: 'tiers',
    requirements: ['TIER-4'],
    summary: 'a tier stops at its first block that does not fit; TIER-4 lets every later block of the tier still try',
    defects: { prefixCut: true },
  },
  {
    id: 'truncating-fit',
    section: 'tiers',
    requirements: ['TIER-5'],
    summary: 'a block too large for what is left of the pool is cut to fit; TIER-5 admits blocks whole or not at all',
    defects: { truncatingFit: true },
  },

  // ------------------------------------------------------------ the overflow pool (TIER-6, TIER-7)
  {
    id: 'remainder-in-pool',
    section: 'pool',
    requirements: ['TIER-6'],
    summary: 'the rounding remainder B - sum(tier budgets) is added to the overflow pool; TIER-6 keeps it out',
    defects: { remainderInPool: true },
  },
  {
    id: 'no-overflow-pool',
    section: 'pool',
    requirements: ['TIER-7', 'TIER-6'],
    summary: 'a block that does not fit its tier is omitted; TIER-7 offers the set-aside blocks what the tiers left unspent (the overflow pool)',
    defects: { noOverflowPool: true },
  },
  {
    id: 'prefix-cut-in-the-pool',
    section: 'pool',
    requirements: ['TIER-7'],
    summary: 'the pool stops at the first set-aside block that does not fit; TIER-7 lets every later block still try',
    defects: { poolPrefixCut: true },
  },

  // ------------------------------------------------------------ expiry (EXP-1, EXP-2)
  {
    id: 'expired-pinned-kept',
    section: 'expiry',
    requirements: ['PIN-5', 'EXP-2'],
    summary: 'an expired pinned block is still admitted; PIN-5 and EXP-2 omit it as expired',
    defects: { expiredPinnedKept: true },
    when: ['pinned'],
  },
  {
    id: 'expired-pinned-counted',
    section: 'expiry',
    requirements: ['PIN-5', 'PIN-2'],
    summary: 'expired pinned blocks count toward the pinned overflow; PIN-5 says an expired pinned block costs nothing',
    defects: { expiredPinnedCounted: true },
    when: ['pinned'],
  },
  {
    id: 'expired-required-kept',
    section: 'expiry',
    requirements: ['EXP-2', 'CON-2'],
    summary: 'an expired block listed in must_include is still admitted; EXP-2 omits it as expired',
    defects: { expiredRequiredKept: true },
    when: ['constraints'],
  },

  // ------------------------------------------------------------ ordering (TIER-3, NUM-4, NUM-5)
  {
    id: 'priority-ascending',
    section: 'ordering',
    requirements: ['TIER-3', 'RANK-1'],
    summary: 'blocks are taken lowest priority first; TIER-3 and RANK-1 take the highest first',
    defects: { priorityAscending: true },
    when: ['valid'],
  },
  {
    id: 'signed-zero-order',
    section: 'ordering',
    requirements: ['NUM-5', 'TIER-3', 'RANK-1'],
    summary: 'priorities are in a total order that puts -0 below 0; NUM-5 says -0 equals 0',
    defects: { signedZeroOrder: true },
    when: ['valid'],
  },
  {
    id: 'near-duplicates-dropped',
    section: 'ordering',
    requirements: ['REN-4', 'RES-2'],
    summary: 'of two blocks of one source whose contents begin alike, the lower-ranked is dropped; REN-4 says selection is blind to content',
    defects: { dropsNearDuplicates: true },
  },

  // ------------------------------------------------------------ rendering (REN-1 .. REN-4)
  {
    id: 'render-by-priority-only',
    section: 'rendering',
    requirements: ['REN-1'],
    summary: 'included blocks are rendered by (-priority, block_id), ignoring the source; REN-1 renders by (source, -priority, block_id)',
    defects: { renderOrder: 'priority' },
  },
  {
    id: 'render-in-input-order',
    section: 'rendering',
    requirements: ['REN-1', 'REN-5'],
    summary: 'included blocks are rendered in input order; REN-1 renders by (source, -priority, block_id)',
    defects: { renderOrder: 'input' },
  },
  {
    id: 'render-in-selection-order',
    section: 'rendering',
    requirements: ['REN-1'],
    summary: 'included blocks are rendered in the order they were admitted; REN-1 renders by (source, -priority, block_id)',
    defects: { renderOrder: 'selection' },
  },

  // ------------------------------------------------------------ omissions and result members (TIER-8, RES-1 .. RES-3, TIER-9)
  {
    id: 'omissions-sorted-by-id',
    section: 'omissions',
    requirements: ['TIER-8'],
    summary: 'omissions are listed sorted by block_id; TIER-8 lists expired first (input order), then the filters, then the budget omissions in pool order',
    defects: { omissionOrder: 'by-id' },
  },
  {
    id: 'omissions-in-input-order',
    section: 'omissions',
    requirements: ['TIER-8'],
    summary: 'omissions are listed in input order; TIER-8 lists expired first, then the filters, then the budget omissions in pool order',
    defects: { omissionOrder: 'input' },
    when: ['tiered'],
  },
  {
    id: 'expired-omissions-last',
    section: 'omissions',
    requirements: ['TIER-8', 'EXP-2'],
    summary: 'expired omissions are listed after the others; TIER-8 lists them first',
    defects: { omissionOrder: 'expired-last' },
    when: ['tiered'],
  },

  // ------------------------------------------------------------ pinned (8.1)
  {
    id: 'pinned-ignored',
    section: 'pinned',
    requirements: ['PIN-1', 'PIN-3', 'PIN-4'],
    summary: 'pinned: true is ignored, the block is ranked like any other; PIN-1 admits live pinned blocks first',
    defects: { pinnedIgnored: true },
  },
  {
    id: 'pinned-in-rank-order',
    section: 'pinned',
    requirements: ['PIN-4'],
    summary: 'pinned blocks are rendered in ranking-key order; PIN-4 renders them first in input order',
    defects: { pinnedRenderOrder: 'rank' },
  },
  {
    id: 'pinned-rendered-with-the-rest',
    section: 'pinned',
    requirements: ['PIN-4'],
    summary: 'pinned blocks are rendered among the others in (source, -priority, block_id) order; PIN-4 renders them first, in input order',
    defects: { pinnedRenderOrder: 'with-rest' },
  },
  {
    id: 'pinned-cost-not-subtracted',
    section: 'pinned',
    requirements: ['PIN-3', 'TIER-9'],
    summary: 'the tiers share the whole budget beside the pinned blocks; PIN-3 gives them B = budget - pinned cost',
    defects: { pinnedCostNotSubtracted: true },
  },
  {
    id: 'pinned-overflow-trimmed',
    section: 'pinned',
    requirements: ['PIN-2', 'ERR-2'],
    summary: 'pinned blocks that overflow the budget are dropped until the rest fit; PIN-2 answers pinned_overflow, no partial context',
    defects: { pinnedOverflowTrimmed: true },
  },
  {
    id: 'pinned-overflow-as-invalid-request',
    section: 'pinned',
    requirements: ['PIN-2', 'ERR-1'],
    summary: 'a pinned overflow is answered invalid_request; PIN-2 requires the error pinned_overflow',
    defects: { pinnedOverflowAsInvalid: true },
  },
  {
    id: 'filters-spare-pinned',
    section: 'pinned',
    requirements: ['PIN-5'],
    summary: 'exclude and the lifecycle rules do not apply to pinned blocks; PIN-5 applies them to pinned blocks as to any other',
    defects: { filtersSparePinned: true },
  },
  {
    id: 'max-segments-counts-pinned',
    section: 'pinned',
    requirements: ['CON-5', 'PIN-1'],
    summary: 'pinned blocks count toward max_segments; CON-5 caps the non-pinned blocks only',
    defects: { maxSegmentsCountsPinned: true },
  },

  // ------------------------------------------------------------ constraints (8.2)
  {
    id: 'exclude-before-expiry',
    section: 'constraints',
    requirements: ['CON-1', 'TIER-8'],
    summary: 'the exclude pass runs before the expiry pass (an expired excluded block is excluded); CON-1 runs it after, so it is expired',
    defects: { excludeBeforeExpiry: true },
  },
  {
    id: 'filters-in-one-pass',
    section: 'constraints',
    requirements: ['TIER-8', 'CON-1', 'LIF-3'],
    summary:
      'expired, excluded and lifecycle omissions are listed together in input order; TIER-8 lists the expired first, then the excluded, then the lifecycle ones',
    defects: { filtersInOnePass: true },
    when: ['constraints', 'status'],
  },
  {
    id: 'required-in-listed-order',
    section: 'constraints',
    requirements: ['CON-2'],
    summary: 'required blocks are admitted in must_include order; CON-2 admits them in ranking-key order',
    defects: { requiredInListedOrder: true },
  },
  {
    id: 'required-forced',
    section: 'constraints',
    requirements: ['CON-2', 'CON-3', 'TIER-9'],
    summary: 'required blocks are admitted even when they do not fit; CON-3 omits a required block that does not fit',
    defects: { requiredForced: true },
  },
  {
    id: 'required-prefix-cut',
    section: 'constraints',
    requirements: ['CON-2'],
    summary: 'required blocks stop at the first that does not fit; CON-2 lets every later one still try',
    defects: { requiredPrefixCut: true },
  },
  {
    id: 'required-cost-not-subtracted',
    section: 'constraints',
    requirements: ['CON-2', 'TIER-9'],
    summary: 'the tiers share B without subtracting the required blocks; CON-2 shrinks B by the cost of each one admitted',
    defects: { requiredCostNotSubtracted: true },
  },
  {
    id: 'required-omissions-after-the-pool',
    section: 'constraints',
    requirements: ['CON-3', 'TIER-8'],
    summary: 'required blocks that do not fit are listed after the tier budget omissions; CON-3 lists them before',
    defects: { requiredOmissionsAfterPool: true },
  },
  {
    id: 'max-segments-by-render-order',
    section: 'constraints',
    requirements: ['CON-5'],
    summary: 'max_segments keeps the first blocks in render order; CON-5 keeps the first by the ranking key',
    defects: { maxSegmentsByRenderOrder: true },
  },
  {
    id: 'max-segments-before-selection',
    section: 'constraints',
    requirements: ['CON-5'],
    summary:
      'max_segments cuts the candidates before the budget chooses; CON-5 caps after selection, so a block omitted for budget takes no place under the cap',
    defects: { maxSegmentsBeforeSelection: true },
  },
  {
    id: 'max-segments-during-selection',
    section: 'constraints',
    requirements: ['CON-5'],
    summary:
      'max_segments stops admitting once the cap is reached (tier blocks before pool blocks); CON-5 caps after selection, keeping the first by the ranking key',
    defects: { maxSegmentsDuringSelection: true },
  },
  {
    id: 'recency-prefers-older',
    section: 'constraints',
    requirements: ['CON-6'],
    summary: 'prefer_recency ranks older blocks first; CON-6 adds -created_at, newest first',
    defects: { recencyAscending: true },
  },
  {
    id: 'preferences-before-priority',
    section: 'constraints',
    requirements: ['CON-6'],
    summary: 'the preferences rank before priority; CON-6 puts them between priority and block_id',
    defects: { preferencesBeforePriority: true },
  },
  {
    id: 'preferences-change-rendering',
    section: 'constraints',
    requirements: ['CON-6', 'REN-1'],
    summary: 'the preferences change the render order too; CON-6 changes selection only, rendering stays REN-1',
    defects: { preferencesInRender: true },
  },
  {
    id: 'required-warning-per-listing',
    section: 'constraints',
    requirements: ['CON-4'],
    summary: 'an id listed twice in must_include gets two required_ref_omitted warnings; CON-4 gives one per id',
    defects: { requiredWarningPerListing: true },
  },
  {
    id: 'no-required-warning-for-unknown-ids',
    section: 'constraints',
    requirements: ['CON-4'],
    summary: 'a must_include id that names no block gets no required_ref_omitted warning; CON-4 warns for every id not included, whatever the reason',
    defects: { requiredWarningNeedsBlock: true },
  },
  {
    id: 'no-required-warning',
    section: 'constraints',
    requirements: ['CON-4', 'WC-4'],
    summary: 'no required_ref_omitted warning is given; CON-4 warns once for each must_include id not included',
    defects: { noRequiredWarning: true },
  },

  // ------------------------------------------------------------ lifecycle (8.3)
  {
    id: 'lifecycle-ignored',
    section: 'lifecycle',
    requirements: ['LIF-1', 'LIF-2', 'LIF-4'],
    summary: 'block statuses are ignored (every block treated as active); LIF-1 .. LIF-4 filter and warn by status',
    defects: { lifecycleIgnored: true },
  },
  {
    id: 'stale-treated-as-superseded',
    section: 'lifecycle',
    requirements: ['LIF-3', 'LIF-4'],
    summary: 'a stale block is treated as superseded; LIF-3 never omits a stale block, and LIF-4 warns stale_consolidation',
    defects: { staleAsSuperseded: true },
  },
  {
    id: 'lifecycle-before-exclude',
    section: 'lifecycle',
    requirements: ['LIF-3', 'TIER-8'],
    summary: 'the lifecycle pass runs before the exclude pass; LIF-3 runs it after, so an excluded superseded block is excluded',
    defects: { lifecycleBeforeExclude: true },
  },
  {
    id: 'no-lifecycle-warnings',
    section: 'lifecycle',
    requirements: ['LIF-4', 'WC-4'],
    summary: 'included disputed, superseded or stale blocks get no warning; LIF-4 gives one per block',
    defects: { noLifecycleWarnings: true },
  },
  {
    id: 'no-stale-warning',
    section: 'lifecycle',
    requirements: ['LIF-4'],
    summary: 'an included stale block gets no stale_consolidation warning; LIF-4 gives one',
    defects: { staleNoWarning: true },
  },

  // ------------------------------------------------------------ working_context (8.4)
  {
    id: 'truncated-for-any-omission',
    section: 'working_context',
    requirements: ['WC-3'],
    summary: 'truncated is true for any omission; WC-3 makes it true only for a budget or max_segments omission',
    defects: { truncatedForAnyOmission: true },
  },
  {
    id: 'truncated-and-its-warning-for-any-omission',
    section: 'working_context',
    requirements: ['WC-3', 'WC-4'],
    summary: 'truncated and the truncated warning are given for any omission; WC-3 and WC-4 give them only for a budget or max_segments omission',
    defects: { truncatedForAnyOmission: true, truncatedWarningForAnyOmission: true },
  },
  {
    id: 'truncated-ignores-max-segments',
    section: 'working_context',
    requirements: ['WC-3'],
    summary: 'truncated is false when only max_segments left blocks out; WC-3 makes it true for a max_segments omission too',
    defects: { truncatedIgnoresMaxSegments: true },
  },
  {
    id: 'no-truncated-warning',
    section: 'working_context',
    requirements: ['WC-4'],
    summary: 'no truncated warning is given; WC-4 gives one exactly when truncated is true',
    defects: { noTruncatedWarning: true },
  },
  {
    id: 'no-empty-context-warning',
    section: 'working_context',
    requirements: ['WC-4'],
    summary: 'no empty_context warning is given; WC-4 gives one exactly when nothing is included',
    defects: { noEmptyContextWarning: true },
  },
  {
    id: 'retrieval-warning-emitted',
    section: 'working_context',
    requirements: ['WC-4'],
    summary: 'a retrieval warning (eventual_consistency) is emitted; WC-4 says an assembler never emits it',
    defects: { retrievalWarning: true },
  },
  {
    id: 'segment-score-is-tokens',
    section: 'working_context',
    requirements: ['WC-2'],
    summary: "a segment's score is its token count; WC-2 makes it the block's priority",
    defects: { segmentScoreIsTokens: true },
  },
  {
    id: 'every-segment-reason-tier',
    section: 'working_context',
    requirements: ['WC-2'],
    summary: 'every segment has the reason tier; WC-2 gives pinned, required, tier or overflow by how the block was admitted',
    defects: { segmentReasons: 'all-tier' },
  },
  {
    id: 'overflow-segments-reason-tier',
    section: 'working_context',
    requirements: ['WC-2'],
    summary: 'a block admitted from the overflow pool has the segment reason tier; WC-2 gives it overflow',
    defects: { segmentReasons: 'overflow-as-tier' },
  },
  {
    id: 'pinned-and-required-as-required',
    section: 'working_context',
    requirements: ['WC-2'],
    summary: 'a block both pinned and required has the segment reason required; WC-2 admits it as pinned',
    defects: { segmentReasons: 'required-over-pinned' },
  },
  {
    id: 'segments-in-selection-order',
    section: 'working_context',
    requirements: ['WC-2'],
    summary: 'segments are listed in the order blocks were admitted; WC-2 lists them in rendered order',
    defects: { segmentsInSelectionOrder: true },
  },

  // ------------------------------------------------------------ omission_markers (8.5)
  {
    id: 'no-markers',
    section: 'markers',
    requirements: ['MRK-1'],
    summary: 'omission_markers is declared but no marker is rendered; MRK-1 leaves one for each block omitted for budget or segment count',
    defects: { noMarkers: true },
  },
  {
    id: 'markers-before-everything',
    section: 'markers',
    requirements: ['MRK-3'],
    summary: 'the markers are gathered at the top of the context; MRK-3 puts each where its block would have rendered, after the pinned blocks',
    defects: { markerPlacement: 'first' },
  },
  {
    id: 'markers-after-everything',
    section: 'markers',
    requirements: ['MRK-3'],
    summary: 'the markers are gathered at the end of the context; MRK-3 puts each where its block would have rendered',
    defects: { markerPlacement: 'last' },
  },
  {
    id: 'content-in-marker',
    section: 'markers',
    requirements: ['MRK-2'],
    summary: 'a marker quotes the start of the omitted content; MRK-2 says nothing of the content appears in it',
    defects: { contentInMarker: true },
  },
  {
    id: 'marker-for-expired',
    section: 'markers',
    requirements: ['MRK-1'],
    summary: 'expired blocks leave a marker too; MRK-1 marks only omissions of class budget or max_segments',
    defects: { markerForExpired: true },
  },
  {
    id: 'marker-for-filtered',
    section: 'markers',
    requirements: ['MRK-1'],
    summary: 'excluded, superseded and disputed blocks leave a marker too; MRK-1 marks only omissions of class budget or max_segments',
    defects: { markerForFiltered: true },
  },
  {
    id: 'no-marker-for-max-segments',
    section: 'markers',
    requirements: ['MRK-1'],
    summary: 'a block cut by max_segments leaves no marker; MRK-1 marks it "over segment limit"',
    defects: { noMarkerForMaxSegments: true },
  },
  {
    id: 'budget-marker-for-max-segments',
    section: 'markers',
    requirements: ['MRK-2'],
    summary: 'a block cut by max_segments is marked "over token budget"; MRK-2 marks it "over segment limit"',
    defects: { budgetMarkerForSegments: true },
  },

  // ------------------------------------------------------------ profile ranked (section 6)
  {
    id: 'ranked-header-not-counted',
    section: 'ranked',
    requirements: ['RANK-4', 'RANK-5'],
    summary: "in ranked, the header's cost is not counted; RANK-4 starts packing at the header's 29 tokens",
    defects: { rankedHeaderNotCounted: true },
  },
  {
    id: 'ranked-header-when-empty',
    section: 'ranked',
    requirements: ['RANK-5'],
    summary: 'in ranked, the header is given when no line fits; RANK-5 makes the context "" and estimated_tokens 0',
    defects: { rankedHeaderAlways: true },
  },
  {
    id: 'ranked-date-of-now',
    section: 'ranked',
    requirements: ['RANK-3'],
    summary: "in ranked, a line is dated with the request's now; RANK-3 dates it with the block's created_at",
    defects: { rankedDateFromNow: true },
  },
  {
    id: 'ranked-undated-as-epoch',
    section: 'ranked',
    requirements: ['RANK-3'],
    summary: 'in ranked, a block without created_at is dated 1970-01-01; RANK-3 writes undated',
    defects: { rankedUndatedAsEpoch: true },
  },
  {
    id: 'ranked-date-truncated',
    section: 'ranked',
    requirements: ['RANK-3'],
    summary: 'in ranked, a negative or fractional created_at is dated by truncating toward zero; RANK-3 takes the UTC day containing the instant (floor)',
    defects: { rankedDateTruncated: true },
  },
  {
    id: 'ranked-with-capability-members',
    section: 'ranked',
    requirements: ['RANK-7', 'RES-1'],
    summary: 'a ranked result carries the working_context members; RANK-7 gives it exactly the five core members',
    defects: { rankedCapabilityMembers: true },
  },
];

registerInOrder(SWITCH_ENTRIES);
await registerDefectsIn(DEFECTS_DIR);

/**
 * Every known defect, in catalogue order: by section, the switch entries
 * first and then the defect modules by file name. Live: a defect registered
 * later (registerDefect) is in it from then on.
 */
export const CATALOGUE: readonly CatalogueEntry[] = REGISTERED;
