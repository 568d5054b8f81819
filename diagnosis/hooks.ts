/**
 * The named hooks of the defect model (model.ts): the points where a design
 * varies (reference/design.ts), each with the specification's reading as its
 * default. A defect overrides the hooks it changes: its entry's `defects`
 * name them (defects/*.ts), so two defects that override the same hook
 * conflict: no implementation has both.
 */
import { HEADER_SEPARATOR, invalidRequest, RANKING_POOL_ORDER, SPEC_COUNT, SPEC_RENDER, SPEC_TIERS } from '../reference/index.js';
import type { Rounding } from '../reference/index.js';
import type { Problem, Tier } from '../protocol/assembly.js';
import { isObject } from './json-object.js';

/** A request or an answer as the model reads it. */
export type Rec = Record<string, unknown>;

const same = (r: Rec): Rec => r;

/** Where an omission comes from (model.ts Site). */
export type Site = 'expired' | 'excluded' | 'superseded' | 'disputed' | 'pool' | 'required' | 'max_segments' | 'ranked';

/** A block as the model's selection reads and moves it. */
export interface ModelBlock {
  index: number;
  id: string;
  source: string;
  content: string;
  /** What selection ranks by (URGENT boost aside, the priority). */
  rank: number;
  priority: number;
  createdAt: number;
  dated: boolean;
  ttl: number;
  pinned: boolean;
  status: string;
  confidence: number;
  cost: number;
  tier: Tier;
  /** Where selection put it. */
  state: 'live' | 'pinned' | 'required' | 'tier' | 'overflow' | 'omitted';
  site?: Site;
  /** The content as rendered: cut by a truncating fit. */
  shown: string;
}

/** The two preferences of CON-6. */
export interface Preferences {
  prefer_recency: boolean;
  prefer_high_confidence: boolean;
}

export interface ModelHooks {
  /** NUM-1: the length of a text, in the units the estimate divides. */
  length(text: string): number;
  /** NUM-2: how length / chars per token becomes whole tokens. */
  rounding: Rounding;
  /** NUM-2: the least a block costs. */
  minimumCost: 0 | 1;
  /** TIER-2, NUM-3: a tier's budget out of a positive budget left. */
  tierBudget(budget: number, pct: number): number;
  /** NUM-2: the text a block's cost counts. */
  costedText(block: Pick<ModelBlock, 'source' | 'id' | 'content'>): string;
  /** TIER-3: what selection ranks a block by. */
  rankOf(priority: number, content: string): number;
  /** NUM-4: the order of two block ids (selection's ties and rendering). */
  compareIds(a: string, b: string): number;
  /** TIER-3: the order of two blocks the ranking key ties on until block_id; `byId` is the id order in force. */
  tieBreak(x: ModelBlock, y: ModelBlock, byId: (a: string, b: string) => number): number;
  /** TIER-7: the order the pool is offered the blocks the tiers set aside (given in ranking order). */
  poolOrder(aside: readonly ModelBlock[]): readonly ModelBlock[];
  /** EXP-1: whether a block of this ttl_seconds can expire at all. */
  expires(ttl: number): boolean;
  /** EXP-1: whether `now` is past the end of a block's life, created_at + ttl_seconds. */
  pastEnd(now: number, end: number): boolean;
  /** REN-4: a block's content as the context shows it. */
  body(content: string): string;
  /** TIER-9: the answer's estimated_tokens, from the included blocks' costs and the context rendered. */
  estimate(spent: number, context: string): number;
  /** RES-2: whether an omission is listed in the answer. */
  listsOmission(omission: { block_id: string; reason: string }): boolean;
  /** RES-3: the answer's total_budget, from the request's budget and the answer's estimated_tokens. */
  totalBudget(budget: number, estimated: number): number;
  /** CON-5: the cap on non-pinned included blocks, from the request's max_segments (null: none asked). */
  maxSegments(asked: number | null): number | null;
  /** CON-1: the block ids the request's exclude omits. */
  exclude(asked: readonly string[]): readonly string[];
  /** CON-2: the block ids the request's must_include requires. */
  mustInclude(asked: readonly string[]): readonly string[];
  /** CON-6: the preferences the ranking key reads, from the request's. */
  preferences(asked: Preferences): Preferences;
  /** CON-7: include_disputed when the request does not say. */
  includeDisputedByDefault: boolean;
  /** CON-7: include_superseded when the request does not say. */
  includeSupersededByDefault: boolean;
  /** RANK-1: the order of two equal-priority ranked lines, from their block ids and input places. */
  rankedTie(x: { id: string; index: number }, y: { id: string; index: number }): number;
  /** RANK-4: whether ranked packing stops at the first line that does not fit. */
  rankedStopsAtMisfit: boolean;
  /** RANK-3: the text a ranked line's cost counts, from the line and the block's content. */
  rankedCostedText(line: string, content: string): string;
  /** RANK-6: the ttl_seconds a ranked block lives by, from its own and whether it is dated. */
  rankedTtl(ttl: number, dated: boolean): number;
  /** PIN-4: the order of `included`, from the render order and the ids of the pinned blocks. */
  includedOrder(rendered: readonly string[], pinned: ReadonlySet<string>): readonly string[];

  // ---------------------------------------------------------------- reading the request (section 3, errors)
  /** REQ-4: the request as read before validation, for members given as null (default: as it is; so for each read below). */
  readNulls(r: Rec): Rec;
  /** VAL-8: the request as read, for numbers that are not finite. */
  readNonFinite(r: Rec): Rec;
  /** VAL-4: the request as read, for block ids given twice. */
  readDuplicates(r: Rec): Rec;
  /** VAL-2: the request as read, for a budget that is not a whole number. */
  readBudget(r: Rec): Rec;
  /** VAL-5: the request as read, for a negative ttl_seconds. */
  readTtl(r: Rec): Rec;
  /** VAL-5: the request as read, for a block status written in another case. */
  readStatus(r: Rec): Rec;
  /** VAL-9: the ranked request as read, for members the profile cannot honour. */
  readRanked(r: Rec): Rec;
  /** REQ-3: whether the implementation refuses a request it has read before validating it (the specification refuses only what validation finds). */
  refuses(r: Rec): boolean;
  /** ERR-1: the answer to a request validation refuses. */
  invalidAnswer(problems: readonly Problem[]): Rec;

  // ---------------------------------------------------------------- counting and constants (sections 4, 17)
  /** NUM-2: an undeclared divisor, over the declared and the specification's (undefined: none). */
  charsPerToken: number | undefined;
  /** DECL-2: whether a declared chars_per_token is read. */
  readsDeclaredCharsPerToken: boolean;
  /** DECL-3: whether the ranked profile takes a declared chars_per_token too. */
  rankedTakesDeclaredCharsPerToken: boolean;
  /** TIER-2: an undeclared split of the budget, over the declared and the specification's (undefined: none). */
  tierPercent: Readonly<Record<Tier, number>> | undefined;
  /** DECL-2: whether declared tier_fractions are read. */
  readsDeclaredSplit: boolean;
  /** DECL-2: whether a declared source_to_tier is read. */
  readsDeclaredSources: boolean;
  /** TIER-1: sources moved to another tier without declaring it, over the declared map (undefined: none). */
  sourceToTier: Readonly<Record<string, Tier>> | undefined;
  /** TIER-1: the tier of a source the map does not list. */
  unlistedTier: Tier;
  /** TIER-1: whether sources are looked up without regard to case. */
  caseInsensitiveSources: boolean;
  /** TIER-1: whether a hyphen in a source is looked up as an underscore. */
  hyphensAsUnderscores: boolean;

  // ---------------------------------------------------------------- selection (sections 5, 7)
  /** TIER-4: whether a tier stops admitting at its first block that does not fit. */
  prefixCut: boolean;
  /** TIER-5: whether the pool cuts a block that does not fit to what it has left. */
  truncatingFit: boolean;
  /** NUM-5: whether -0 ranks below 0. */
  signedZeroOrder: boolean;
  /** TIER-3: whether selection ranks lower priority first. */
  priorityAscending: boolean;
  /** REN-4, RES-2: whether a block whose first 8 characters repeat an earlier one's of its source is dropped. */
  dropsNearDuplicates: boolean;
  /** TIER-6: whether the pool exists. */
  overflowPool: boolean;
  /** TIER-7: whether the tier budgets' rounding remainder goes to the pool. */
  remainderInPool: boolean;
  /** TIER-7: whether the pool stops at its first block that does not fit. */
  poolPrefixCut: boolean;

  // ---------------------------------------------------------------- pinned (8.1)
  /** PIN-1: whether the pinned member is read. */
  readsPinned: boolean;
  /** PIN-2: what pinned blocks that cost more than B bring: the error, the error of an invalid request, or the pinned blocks that fit. */
  pinnedOverflow: 'pinned_overflow' | 'invalid_request' | 'trim';
  /** PIN-5, PIN-2: whether the cost compared with B counts expired pinned blocks too. */
  expiredPinnedCounted: boolean;
  /** PIN-3: whether the pinned cost is taken from B before selection. */
  pinnedCostSubtracted: boolean;
  /** PIN-4: the order pinned blocks render in: input order first, by the ranking key first, or with the rest by REN-1. */
  pinnedRenderOrder: 'input' | 'rank' | 'with-rest';
  /** PIN-5: whether an expired pinned block is kept. */
  expiredPinnedKept: boolean;
  /** PIN-5: whether exclude and the lifecycle filters spare pinned blocks. */
  filtersSparePinned: boolean;

  // ---------------------------------------------------------------- constraints (8.2)
  /** CON-1: whether exclude runs before expiry. */
  excludeBeforeExpiry: boolean;
  /** TIER-8: whether the filters run in one pass over the blocks instead of one pass each. */
  filtersInOnePass: boolean;
  /** CON-2: whether an expired required block is kept. */
  expiredRequiredKept: boolean;
  /** CON-2: whether required blocks are admitted in the order must_include lists them. */
  requiredInListedOrder: boolean;
  /** CON-3: whether required blocks are admitted whether they fit or not. */
  requiredForced: boolean;
  /** CON-2: whether required admission stops at its first block that does not fit. */
  requiredPrefixCut: boolean;
  /** CON-2: whether the required cost is taken from what the tiers split. */
  requiredCostSubtracted: boolean;
  /** CON-3, TIER-8: whether required omissions are listed after the pool's. */
  requiredOmissionsAfterPool: boolean;
  /** CON-5: whether max_segments counts the pinned blocks. */
  maxSegmentsCountsPinned: boolean;
  /** CON-5: when max_segments cuts: after selection by the ranking key, after selection by render order, before selection, or during it. */
  maxSegmentsCut: 'after' | 'render-order' | 'before' | 'during';
  /** CON-6: whether prefer_recency ranks older first. */
  recencyAscending: boolean;
  /** CON-6: whether the preferences rank before priority. */
  preferencesBeforePriority: boolean;
  /** CON-6: whether the preferences order the render too. */
  preferencesInRender: boolean;

  // ---------------------------------------------------------------- lifecycle (8.3)
  /** LIF-1: whether the status member is read. */
  readsStatus: boolean;
  /** LIF-3: whether a stale block is read as superseded. */
  staleAsSuperseded: boolean;
  /** LIF-3: whether the lifecycle filter runs before exclude. */
  lifecycleBeforeExclude: boolean;

  // ---------------------------------------------------------------- rendering and the answer (sections 7, 9)
  /** REN-1: the order the non-pinned blocks render in: by REN-1's key, by priority, in input order, or in selection order. */
  renderOrder: 'key' | 'priority' | 'input' | 'selection';
  /** REN-2: what separates a block's source from its id in its header. */
  headerSeparator: string;
  /** REN-2: sources written otherwise in a block's header, as the request's source to the text written (undefined: none). */
  headerSources: Readonly<Record<string, string>> | undefined;
  /** REN-3: what joins two rendered blocks. */
  joiner: string;
  /** REN-3: text before the first block. */
  preamble: string;
  /** REN-5: the context when no block renders. */
  emptyPlaceholder: string;
  /** REN-3: text after the context. */
  contextSuffix: string;
  /** TIER-8: the order of omissions: as selection found them, by block id, in input order, or with the expired last. */
  omissionOrder: 'selection' | 'by-id' | 'input' | 'expired-last';
  /** RES-1: members the answer carries that the specification does not define (undefined: none). */
  extraMembers: Readonly<Record<string, unknown>> | undefined;
  /** RES-1: members the answer leaves out (undefined: none). */
  missingMembers: readonly string[] | undefined;

  // ---------------------------------------------------------------- working_context (8.4)
  /** WC-5: generated_at, when it is not the request's now (undefined: now). */
  generatedAt: number | undefined;
  /** WC-3: which omissions set truncated: those for room, or any. */
  truncatedBy: 'room' | 'any';
  /** WC-4: whether the truncated warning follows truncated when truncatedBy is any (else it follows omissions for room). */
  truncatedWarningFollowsFlag: boolean;
  /** WC-3: whether a max_segments omission sets truncated. */
  truncatedCountsMaxSegments: boolean;
  /** WC-4: whether the truncated warning is written. */
  truncatedWarning: boolean;
  /** WC-4: whether the empty_context warning is written. */
  emptyContextWarning: boolean;
  /** WC-4: whether the required_ref_omitted warnings are written. */
  requiredWarning: boolean;
  /** WC-4: whether a required block listed twice is warned about twice. */
  requiredWarningPerListing: boolean;
  /** WC-4: whether a required id no block has goes unwarned. */
  requiredWarningNeedsBlock: boolean;
  /** WC-4: whether the lifecycle warnings are written. */
  lifecycleWarnings: boolean;
  /** WC-4: whether an included stale block is warned about. */
  staleWarning: boolean;
  /** WC-4: whether a warning the specification does not define is written. */
  retrievalWarning: boolean;
  /** WC-2: what a segment's score is: the block's priority or its tokens. */
  segmentScore: 'priority' | 'tokens';
  /** WC-2: how a segment's reason is read: its state, always tier, overflow as tier, or required over pinned. */
  segmentReasons: 'state' | 'all-tier' | 'overflow-as-tier' | 'required-over-pinned';
  /** WC-2: whether segments follow selection order rather than render order. */
  segmentsInSelectionOrder: boolean;

  // ---------------------------------------------------------------- omission_markers (8.5)
  /** MRK-1: whether markers are written. */
  markers: boolean;
  /** MRK-3: where markers go: where each block would have rendered, all first, or all last. */
  markerPlacement: 'in-place' | 'first' | 'last';
  /** MRK-2: whether a marker shows the start of the omitted content. */
  contentInMarker: boolean;
  /** MRK-1: whether an expired block leaves a marker. */
  markerForExpired: boolean;
  /** MRK-1: whether a block exclude or the lifecycle filters omit leaves a marker. */
  markerForFiltered: boolean;
  /** MRK-1: whether a max_segments omission leaves a marker. */
  markerForMaxSegments: boolean;
  /** MRK-2: whether a max_segments marker says over budget. */
  budgetMarkerForSegments: boolean;

  // ---------------------------------------------------------------- profile ranked (section 6)
  /** RANK-4, RANK-5: whether the header's cost is counted. */
  rankedHeaderCounted: boolean;
  /** RANK-5: whether the header is written when no line is. */
  rankedHeaderAlways: boolean;
  /** RANK-3: whether a line's date is the request's now instead of created_at. */
  rankedDateFromNow: boolean;
  /** RANK-3: whether an undated line shows 1970-01-01. */
  rankedUndatedAsEpoch: boolean;
  /** RANK-3: whether a day before 1970 is truncated toward zero. */
  rankedDateTruncated: boolean;
  /** RANK-7: whether a ranked answer carries the working_context members. */
  rankedCapabilityMembers: boolean;
}

/** NUM-1: code points, a lone surrogate counted as one (the string iterator yields it alone). */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length) {
      const v = s.charCodeAt(i + 1);
      if (v >= 0xdc00 && v <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** NUM-4: code-point order, as Python orders str. */
export function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  // Where no surrogate is involved before the first difference, UTF-16 order is code-point order.
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const u = i < a.length ? a.charCodeAt(i) : -1;
  const v = i < b.length ? b.charCodeAt(i) : -1;
  if (u < 0xd800 && v < 0xd800 && (i === 0 || !isHighSurrogate(a.charCodeAt(i - 1)))) return u < v ? -1 : 1;
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done) return q.done ? 0 : -1;
    if (q.done) return 1;
    const c = p.value.codePointAt(0)!;
    const d = q.value.codePointAt(0)!;
    if (c !== d) return c < d ? -1 : 1;
  }
}

const isHighSurrogate = (u: number): boolean => u >= 0xd800 && u <= 0xdbff;

/**
 * The specification's design as the model reads it: the tables and the
 * counting rule are the design's (reference/design.ts SPEC_DESIGN); the
 * arithmetic is written here again in plain code (BigInt, a code-point
 * loop), so the model and the reference's fast path keep checking each other.
 */
export const SPEC_HOOKS: ModelHooks = Object.freeze({
  length: codePoints,
  rounding: SPEC_COUNT.rounding,
  minimumCost: SPEC_COUNT.minimum,
  tierBudget: (budget: number, pct: number) => Number((BigInt(budget) * BigInt(pct)) / 100n),
  costedText: (b: Pick<ModelBlock, 'content'>) => b.content,
  rankOf: (priority: number) => priority,
  compareIds: byCodePoint,
  tieBreak: (x: ModelBlock, y: ModelBlock, byId: (a: string, b: string) => number) => byId(x.id, y.id),
  poolOrder: RANKING_POOL_ORDER,
  expires: (ttl: number) => ttl > 0,
  pastEnd: (now: number, end: number) => now > end,
  body: (content: string) => content,
  estimate: (spent: number) => spent,
  listsOmission: () => true,
  totalBudget: (budget: number) => budget,
  maxSegments: (asked: number | null) => asked,
  exclude: (asked: readonly string[]) => asked,
  mustInclude: (asked: readonly string[]) => asked,
  preferences: (asked: Preferences) => asked,
  includeDisputedByDefault: true,
  includeSupersededByDefault: false,
  includedOrder: (rendered: readonly string[]) => rendered,
  rankedTie: (x: { index: number }, y: { index: number }) => x.index - y.index,
  rankedStopsAtMisfit: true,
  rankedCostedText: (line: string) => line,
  rankedTtl: (ttl: number) => ttl,
  readNulls: same,
  readNonFinite: same,
  readDuplicates: same,
  readBudget: same,
  readTtl: same,
  readStatus: same,
  readRanked: same,
  refuses: () => false,
  invalidAnswer: (problems: readonly Problem[]) => invalidRequest([...problems]) as unknown as Rec,
  charsPerToken: undefined,
  readsDeclaredCharsPerToken: true,
  rankedTakesDeclaredCharsPerToken: false,
  tierPercent: undefined,
  readsDeclaredSplit: true,
  readsDeclaredSources: true,
  sourceToTier: undefined,
  unlistedTier: SPEC_TIERS.unlisted,
  caseInsensitiveSources: false,
  hyphensAsUnderscores: false,
  prefixCut: false,
  truncatingFit: false,
  signedZeroOrder: false,
  priorityAscending: false,
  dropsNearDuplicates: false,
  overflowPool: true,
  remainderInPool: false,
  poolPrefixCut: false,
  readsPinned: true,
  pinnedOverflow: 'pinned_overflow',
  expiredPinnedCounted: false,
  pinnedCostSubtracted: true,
  pinnedRenderOrder: 'input',
  expiredPinnedKept: false,
  filtersSparePinned: false,
  excludeBeforeExpiry: false,
  filtersInOnePass: false,
  expiredRequiredKept: false,
  requiredInListedOrder: false,
  requiredForced: false,
  requiredPrefixCut: false,
  requiredCostSubtracted: true,
  requiredOmissionsAfterPool: false,
  maxSegmentsCountsPinned: false,
  maxSegmentsCut: 'after',
  recencyAscending: false,
  preferencesBeforePriority: false,
  preferencesInRender: false,
  readsStatus: true,
  staleAsSuperseded: false,
  lifecycleBeforeExclude: false,
  renderOrder: 'key',
  headerSeparator: HEADER_SEPARATOR,
  headerSources: undefined,
  joiner: SPEC_RENDER.separator,
  preamble: '',
  emptyPlaceholder: SPEC_RENDER.empty,
  contextSuffix: '',
  omissionOrder: 'selection',
  extraMembers: undefined,
  missingMembers: undefined,
  generatedAt: undefined,
  truncatedBy: 'room',
  truncatedWarningFollowsFlag: false,
  truncatedCountsMaxSegments: true,
  truncatedWarning: true,
  emptyContextWarning: true,
  requiredWarning: true,
  requiredWarningPerListing: false,
  requiredWarningNeedsBlock: false,
  lifecycleWarnings: true,
  staleWarning: true,
  retrievalWarning: false,
  segmentScore: 'priority',
  segmentReasons: 'state',
  segmentsInSelectionOrder: false,
  markers: true,
  markerPlacement: 'in-place',
  contentInMarker: false,
  markerForExpired: false,
  markerForFiltered: false,
  markerForMaxSegments: true,
  budgetMarkerForSegments: false,
  rankedHeaderCounted: true,
  rankedHeaderAlways: false,
  rankedDateFromNow: false,
  rankedUndatedAsEpoch: false,
  rankedDateTruncated: false,
  rankedCapabilityMembers: false,
});

/**
 * The hooks in force under a set of overrides: each override, or the
 * specification's reading (inherited from SPEC_HOOKS, so making them costs
 * the overrides only).
 */
export function hooksOf(overrides: Partial<ModelHooks>): ModelHooks {
  let own: PropertyDescriptorMap | undefined;
  for (const name in overrides) {
    const h = overrides[name as keyof ModelHooks];
    if (h === undefined || !Object.hasOwn(SPEC_HOOKS, name)) continue;
    own ??= {};
    own[name] = { value: h, enumerable: true };
  }
  // Defined, not assigned: SPEC_HOOKS is frozen, and a frozen prototype's members cannot be assigned over.
  return own === undefined ? SPEC_HOOKS : (Object.create(SPEC_HOOKS, own) as ModelHooks);
}

/** The request with each of its blocks that is an object as `f` reads it (a copy; the request itself when it has no blocks array). */
export function withBlocks(r: Rec, f: (b: Rec) => Rec): Rec {
  return Array.isArray(r.blocks) ? { ...r, blocks: r.blocks.map((b: unknown) => (isObject(b) ? f(b) : b)) } : r;
}

/** The header the specification writes for a block (REN-2), as the model's default. */
export const specHeader = (b: Pick<ModelBlock, 'source' | 'id'>): string => SPEC_RENDER.header({ source: b.source, block_id: b.id });
