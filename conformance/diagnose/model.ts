/**
 * The defect model: a second assembler of both profiles, every capability of
 * SPEC section 8 and declared constants (section 17), written from the spec
 * in plain code, with one switch per way of getting the spec wrong. With no
 * switch on it answers exactly as reference/ does (test/diagnose/model.test.ts
 * holds it to that over random requests and the corpus); with switches on it
 * answers as an implementation with those defects would, so two switches
 * together are an implementation with both.
 *
 * It is a model, not the oracle: reference/ stays pure and reads as the spec,
 * and nothing here is a hook in it. The model is the specification's design
 * (reference/design.ts) read plainly, with named hooks (hooks.ts) where a
 * design varies: a defect of defects/ overrides hooks, an older entry of the
 * catalogue sets a switch below. Validation is borrowed from the reference
 * (a lenient validator is modelled as a rewrite of the request before it, a
 * wrong error as a rewrite of its answer); the tiered and ranked algorithms
 * are the model's own.
 */
import {
  countTokens,
  HEADER_SEPARATOR,
  invalidRequest,
  MARKER_OVER_BUDGET,
  MARKER_OVER_SEGMENTS,
  RANKED_HEADER,
  REASON_BUDGET,
  REASON_DISPUTED,
  REASON_EXCLUDED,
  REASON_EXPIRED,
  REASON_MAX_SEGMENTS,
  REASON_SUPERSEDED,
  REASON_TIER_BUDGET,
  SPEC_COUNT,
  SPEC_RENDER,
  SPEC_TIERS,
  TIERS,
  validateRequest,
} from '../../reference/index.js';
import type { DeclaredConstants, Tier } from '../../protocol/types.js';
import { byCodePoint, hooksOf, specHeader } from './hooks.js';
import type { ModelBlock as Blk, ModelHooks, Site } from './hooks.js';

export type { Site };

/**
 * Where an omission comes from. Each site has the reference's reason text;
 * an implementation may spell a reason with another code of its class
 * (RES-4), and the diagnosis runs the model with the implementation's own
 * spelling (spelling.ts), so a site, not a text, is what selection decides.
 */
export const SITE_REASONS: Readonly<Record<Site, string>> = {
  expired: REASON_EXPIRED,
  excluded: REASON_EXCLUDED,
  superseded: REASON_SUPERSEDED,
  disputed: REASON_DISPUTED,
  pool: REASON_TIER_BUDGET,
  required: REASON_BUDGET,
  max_segments: REASON_MAX_SEGMENTS,
  ranked: REASON_BUDGET,
};

/** The configuration an implementation answers under: its manifest's capabilities and declared constants, and its spelling of reasons. */
export interface ModelConfig {
  capabilities: readonly string[];
  /** Declared constants that differ from the specification's (undefined: the specification's). */
  constants?: DeclaredConstants | undefined;
  reasons?: Partial<Record<Site, string>>;
}

/**
 * A defect set: the hooks it overrides (hooks.ts; the defects of defects/),
 * and the switches the catalogue's older entries set. The catalogue
 * (catalogue.ts) names them, with the requirement each breaks.
 */
export interface Defects extends Partial<ModelHooks> {
  // Validation (section 3) and errors (section 9): what the implementation reads of a request.
  nullAsAbsent?: boolean;
  nonFiniteAsZero?: boolean;
  duplicateIdsKeepFirst?: boolean;
  fractionalBudgetFloored?: boolean;
  negativeTtlAsZero?: boolean;
  statusCaseInsensitive?: boolean;
  unknownMembersRefused?: boolean;
  rankedDropsWhatItCannotHonour?: boolean;
  invalidAnsweredEmpty?: boolean;
  invalidAsPinnedOverflow?: boolean;
  pinnedOverflowAsInvalid?: boolean;
  pinnedOverflowTrimmed?: boolean;
  // Counting (section 4).
  charsPerToken?: number;
  ignoreDeclaredCharsPerToken?: boolean;
  rankedTakesDeclaredCharsPerToken?: boolean;
  // Tiers (section 5).
  tierPercent?: Readonly<Record<Tier, number>>;
  ignoreDeclaredSplit?: boolean;
  caseInsensitiveSources?: boolean;
  hyphensAsUnderscores?: boolean;
  sourceToTier?: Readonly<Record<string, Tier>>;
  ignoreDeclaredSources?: boolean;
  unlistedTier?: Tier;
  prefixCut?: boolean;
  truncatingFit?: boolean;
  signedZeroOrder?: boolean;
  priorityAscending?: boolean;
  dropsNearDuplicates?: boolean;
  // The overflow pool.
  noOverflowPool?: boolean;
  remainderInPool?: boolean;
  poolPrefixCut?: boolean;
  // Expiry.
  // Rendering.
  renderOrder?: 'priority' | 'input' | 'selection';
  headerSeparator?: string;
  /** Sources written otherwise in a block's header, as the request's source to the text written. */
  headerSources?: Readonly<Record<string, string>>;
  joiner?: string;
  preamble?: string;
  emptyPlaceholder?: string;
  contextSuffix?: string;
  // Result members.
  omissionOrder?: 'by-id' | 'input' | 'expired-last';
  extraMembers?: Readonly<Record<string, unknown>>;
  missingMembers?: readonly string[];
  // pinned (8.1).
  pinnedIgnored?: boolean;
  pinnedRenderOrder?: 'rank' | 'with-rest';
  pinnedCostNotSubtracted?: boolean;
  expiredPinnedKept?: boolean;
  expiredPinnedCounted?: boolean;
  filtersSparePinned?: boolean;
  // constraints (8.2).
  excludeBeforeExpiry?: boolean;
  filtersInOnePass?: boolean;
  expiredRequiredKept?: boolean;
  requiredInListedOrder?: boolean;
  requiredForced?: boolean;
  requiredPrefixCut?: boolean;
  requiredCostNotSubtracted?: boolean;
  requiredOmissionsAfterPool?: boolean;
  maxSegmentsCountsPinned?: boolean;
  maxSegmentsByRenderOrder?: boolean;
  maxSegmentsBeforeSelection?: boolean;
  maxSegmentsDuringSelection?: boolean;
  recencyAscending?: boolean;
  preferencesBeforePriority?: boolean;
  preferencesInRender?: boolean;
  requiredWarningPerListing?: boolean;
  requiredWarningNeedsBlock?: boolean;
  // lifecycle (8.3).
  lifecycleIgnored?: boolean;
  staleAsSuperseded?: boolean;
  lifecycleBeforeExclude?: boolean;
  // working_context (8.4).
  generatedAt?: number;
  truncatedForAnyOmission?: boolean;
  /** With truncatedForAnyOmission: the truncated warning follows the flag. */
  truncatedWarningForAnyOmission?: boolean;
  truncatedIgnoresMaxSegments?: boolean;
  noTruncatedWarning?: boolean;
  noEmptyContextWarning?: boolean;
  noRequiredWarning?: boolean;
  noLifecycleWarnings?: boolean;
  staleNoWarning?: boolean;
  retrievalWarning?: boolean;
  segmentScoreIsTokens?: boolean;
  segmentReasons?: 'all-tier' | 'overflow-as-tier' | 'required-over-pinned';
  segmentsInSelectionOrder?: boolean;
  // omission_markers (8.5).
  noMarkers?: boolean;
  markerPlacement?: 'first' | 'last';
  contentInMarker?: boolean;
  markerForExpired?: boolean;
  markerForFiltered?: boolean;
  noMarkerForMaxSegments?: boolean;
  budgetMarkerForSegments?: boolean;
  // Profile ranked (section 6).
  rankedHeaderNotCounted?: boolean;
  rankedHeaderAlways?: boolean;
  rankedDateFromNow?: boolean;
  rankedUndatedAsEpoch?: boolean;
  rankedDateTruncated?: boolean;
  rankedCapabilityMembers?: boolean;
}

export type Answer = Record<string, unknown>;

const NO_DEFECTS: Defects = Object.freeze({});

interface Omission {
  b: Blk;
  site: Site;
}

const has = Object.hasOwn;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

// ---------------------------------------------------------------- text and numbers

/** The estimate of a text (NUM-2): the design's counting rule over the hooks' length, rounding and least cost. */
function estimateOf(text: string, cpt: number, h: ModelHooks): number {
  return countTokens({ charsPerToken: cpt, rounding: h.rounding, minimum: h.minimumCost }, h.length(text));
}

/** NUM-3: a tier's budget; nothing out of nothing. */
function tierBudget(budget: number, pct: number, h: ModelHooks): number {
  return budget <= 0 ? 0 : h.tierBudget(budget, pct);
}

// ---------------------------------------------------------------- the entry point

/**
 * What validation found in requests already read, by request object: a
 * diagnosis asks about one request under many defect sets, and most read it
 * as it is. Only for requests nobody changes while it is kept.
 */
export type ValidationMemo = WeakMap<object, ReturnType<typeof validateRequest>>;

function problemsOf(req: unknown, memo: ValidationMemo | undefined): ReturnType<typeof validateRequest> {
  if (memo === undefined || typeof req !== 'object' || req === null) return validateRequest(req);
  let p = memo.get(req);
  if (p === undefined) {
    p = validateRequest(req);
    memo.set(req, p);
  }
  return p;
}

/** The answer of an implementation with these defects under this configuration: a result or an error answer. */
export function modelAssemble(request: unknown, config: ModelConfig, d: Defects = NO_DEFECTS, memo?: ValidationMemo): Answer {
  const req = readLeniently(request, d);
  if (d.unknownMembersRefused && isObject(req) && hasUnknownMember(req)) {
    return { error: { code: 'invalid_request', message: 'the request has a member the specification does not define' } };
  }
  const problems = problemsOf(req, memo);
  if (problems.length > 0) {
    if (d.invalidAnsweredEmpty) return { context: '', included: [], estimated_tokens: 0, total_budget: 0, omissions: [] };
    if (d.invalidAsPinnedOverflow) return { error: { code: 'pinned_overflow', message: 'no' } };
    return invalidRequest(problems) as unknown as Answer;
  }
  const r = req as Record<string, unknown>;
  const answer = r.profile === 'ranked' ? ranked(r, config, d) : tiered(r, config, d);
  return 'error' in answer ? answer : resultHabits(answer, d);
}

// ---------------------------------------------------------------- reading the request

const REQUEST_MEMBERS = new Set(['profile', 'now', 'budget', 'blocks', 'constraints']);
const BLOCK_MEMBERS = new Set(['block_id', 'source', 'content', 'priority', 'created_at', 'ttl_seconds', 'pinned', 'status', 'confidence']);
const CONSTRAINT_MEMBERS = new Set([
  'must_include',
  'exclude',
  'max_segments',
  'include_disputed',
  'include_superseded',
  'prefer_recency',
  'prefer_high_confidence',
]);

function hasUnknownMember(r: Record<string, unknown>): boolean {
  if (Object.keys(r).some((k) => !REQUEST_MEMBERS.has(k))) return true;
  if (Array.isArray(r.blocks) && r.blocks.some((b) => isObject(b) && Object.keys(b).some((k) => !BLOCK_MEMBERS.has(k)))) return true;
  return isObject(r.constraints) && Object.keys(r.constraints).some((k) => !CONSTRAINT_MEMBERS.has(k));
}

const dropNulls = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== null || k === 'max_segments'));

function zeroNonFinite(x: unknown): unknown {
  if (typeof x === 'number') return Number.isFinite(x) ? x : 0;
  if (Array.isArray(x)) return x.map(zeroNonFinite);
  if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, zeroNonFinite(v)]));
  return x;
}

/** A lenient reader: the request as such an implementation sees it (a copy when anything changes). */
function readLeniently(request: unknown, d: Defects): unknown {
  if (!isObject(request)) return request;
  let r = request;
  const blocks = (f: (b: Record<string, unknown>) => Record<string, unknown>): void => {
    if (Array.isArray(r.blocks)) r = { ...r, blocks: r.blocks.map((b) => (isObject(b) ? f(b) : b)) };
  };
  if (d.nonFiniteAsZero) r = zeroNonFinite(r) as Record<string, unknown>;
  if (d.nullAsAbsent) {
    r = dropNulls(r);
    if (isObject(r.constraints)) r = { ...r, constraints: dropNulls(r.constraints) };
    blocks(dropNulls);
  }
  if (d.fractionalBudgetFloored && typeof r.budget === 'number' && Number.isFinite(r.budget) && r.budget >= 0) r = { ...r, budget: Math.floor(r.budget) };
  if (d.negativeTtlAsZero) blocks((b) => (typeof b.ttl_seconds === 'number' && b.ttl_seconds < 0 ? { ...b, ttl_seconds: 0 } : b));
  if (d.statusCaseInsensitive) blocks((b) => (typeof b.status === 'string' ? { ...b, status: b.status.toLowerCase() } : b));
  if (d.duplicateIdsKeepFirst && Array.isArray(r.blocks)) {
    const seen = new Set<unknown>();
    r = {
      ...r,
      blocks: r.blocks.filter((b) => {
        if (!isObject(b) || !('block_id' in b)) return true;
        if (seen.has(b.block_id)) return false;
        seen.add(b.block_id);
        return true;
      }),
    };
  }
  if (d.rankedDropsWhatItCannotHonour && r.profile === 'ranked') {
    const { constraints: _k, ...rest } = r;
    r = rest;
    blocks(({ pinned: _p, status: _s, ...b }) => b);
  }
  return r;
}

// ---------------------------------------------------------------- constants

interface Tuning {
  cpt: number;
  percent: Readonly<Record<Tier, number>>;
  tierOf: (source: string) => Tier;
}

/** Tunings already made, by defect set and declaration (both are the caller's long-lived objects). */
const tunings = new WeakMap<Defects, { spec?: Tuning; declared: WeakMap<DeclaredConstants, Tuning> }>();

/** The constants the implementation uses: the declared ones (section 17), with the defects' own values over them. */
function tuning(config: ModelConfig, d: Defects): Tuning {
  let made = tunings.get(d);
  if (made === undefined) {
    made = { declared: new WeakMap() };
    tunings.set(d, made);
  }
  const c = config.constants;
  if (c === undefined) {
    made.spec ??= makeTuning(config, d);
    return made.spec;
  }
  let t = made.declared.get(c);
  if (t === undefined) {
    t = makeTuning(config, d);
    made.declared.set(c, t);
  }
  return t;
}

function makeTuning(config: ModelConfig, d: Defects): Tuning {
  const c = config.constants;
  const cpt = d.charsPerToken ?? (d.ignoreDeclaredCharsPerToken ? undefined : c?.chars_per_token) ?? SPEC_COUNT.charsPerToken;
  const percent = d.tierPercent ?? (d.ignoreDeclaredSplit ? undefined : c?.tier_fractions) ?? SPEC_TIERS.percent;
  const map = new Map<string, Tier>(Object.entries(SPEC_TIERS.sourceToTier));
  if (c?.source_to_tier && !d.ignoreDeclaredSources) for (const [s, t] of Object.entries(c.source_to_tier)) map.set(s, t);
  if (d.sourceToTier) for (const [s, t] of Object.entries(d.sourceToTier)) map.set(s, t);
  const unlisted = d.unlistedTier ?? SPEC_TIERS.unlisted;
  const tierOf = (source: string): Tier => {
    let key = d.caseInsensitiveSources ? source.toLowerCase() : source;
    if (d.hyphensAsUnderscores) key = key.replace(/-/g, '_');
    return map.get(key) ?? unlisted;
  };
  return { cpt, percent, tierOf };
}

// ---------------------------------------------------------------- profile tiered

interface Flags {
  must_include: string[];
  exclude: string[];
  max_segments: number | null;
  include_disputed: boolean;
  include_superseded: boolean;
  prefer_recency: boolean;
  prefer_high_confidence: boolean;
}

/** CON-7's defaults, and what the constraint defects read instead. */
function flagsOf(k: Record<string, unknown> | undefined, d: Defects): Flags {
  const h = hooksOf(d);
  const get = <T>(name: string, dflt: T): T => (k !== undefined && has(k, name) && k[name] !== null && k[name] !== undefined ? (k[name] as T) : dflt);
  const f: Flags = {
    must_include: [...h.mustInclude(get<string[]>('must_include', []))],
    exclude: [...h.exclude(get<string[]>('exclude', []))],
    max_segments: h.maxSegments(get<number | null>('max_segments', null)),
    include_disputed: get('include_disputed', h.includeDisputedByDefault),
    include_superseded: get('include_superseded', h.includeSupersededByDefault),
    ...h.preferences({ prefer_recency: get('prefer_recency', false), prefer_high_confidence: get('prefer_high_confidence', false) }),
  };
  return f;
}

/** EXP-1: a block expires when its ttl applies and now is past created_at + ttl. */
function expired(now: number, createdAt: number, ttl: number, h: ModelHooks): boolean {
  return h.expires(ttl) && h.pastEnd(now, createdAt + ttl);
}

function blocksOf(r: Record<string, unknown>, t: Tuning, d: Defects, h: ModelHooks): Blk[] {
  return (r.blocks as Record<string, unknown>[]).map((b, index) => {
    const content = b.content as string;
    const priority = b.priority as number;
    const source = b.source as string;
    const id = b.block_id as string;
    let status = (b.status as string | undefined) ?? 'active';
    if (d.lifecycleIgnored) status = 'active';
    if (d.staleAsSuperseded && status === 'stale') status = 'superseded';
    const counted = h.costedText({ source, id, content });
    return {
      index,
      id,
      source,
      content,
      shown: content,
      priority,
      rank: h.rankOf(priority, content),
      createdAt: (b.created_at as number | undefined) ?? 0,
      dated: b.created_at !== undefined,
      ttl: (b.ttl_seconds as number | undefined) ?? 0,
      pinned: b.pinned === true && !d.pinnedIgnored,
      status,
      confidence: (b.confidence as number | undefined) ?? 1,
      cost: estimateOf(counted, t.cpt, h),
      tier: t.tierOf(source),
      state: 'live',
    };
  });
}

/** Higher priority first (NUM-5: -0 equals 0, unless the defect orders them); `selection` is the ranking sort, which a defect may run ascending. */
function byPriority(p: number, q: number, d: Defects, selection = false): number {
  if (p !== q) return (p > q ? -1 : 1) * (selection && d.priorityAscending ? -1 : 1);
  if (d.signedZeroOrder && !Object.is(p, q)) return Object.is(p, -0) ? 1 : -1;
  return 0;
}

/** TIER-3 with CON-6: (-priority, [-confidence], [-created_at], block_id), as the defects read it. */
function rankComparator(f: Flags, d: Defects): (x: Blk, y: Blk) => number {
  const { tieBreak, compareIds: idCmp } = hooksOf(d);
  const prefs = (x: Blk, y: Blk): number => {
    if (f.prefer_high_confidence && x.confidence !== y.confidence) return x.confidence > y.confidence ? -1 : 1;
    if (f.prefer_recency && x.createdAt !== y.createdAt) return (x.createdAt > y.createdAt ? -1 : 1) * (d.recencyAscending ? -1 : 1);
    return 0;
  };
  const ties = (x: Blk, y: Blk): number => tieBreak(x, y, idCmp);
  if (d.preferencesBeforePriority) return (x, y) => prefs(x, y) || byPriority(x.rank, y.rank, d, true) || ties(x, y);
  return (x, y) => byPriority(x.rank, y.rank, d, true) || prefs(x, y) || ties(x, y);
}

/** REN-1: (source, -priority, block_id), strings by code points, as the defects read it. */
function renderComparator(f: Flags, d: Defects): (x: Blk, y: Blk) => number {
  const idCmp = hooksOf(d).compareIds;
  const prefs = d.preferencesInRender ? rankComparator(f, { ...d, preferencesBeforePriority: false, tieBreak: undefined }) : undefined;
  if (d.renderOrder === 'priority') return (x, y) => byPriority(x.priority, y.priority, d) || idCmp(x.id, y.id);
  return (x, y) => byCodePoint(x.source, y.source) || (prefs ? prefs(x, y) : byPriority(x.priority, y.priority, d) || idCmp(x.id, y.id));
}

function twinHead(s: string): string | undefined {
  const cps = Array.from(s);
  return cps.length >= 8 ? cps.slice(0, 8).join('') : undefined;
}

function tiered(r: Record<string, unknown>, config: ModelConfig, d: Defects): Answer {
  const t = tuning(config, d);
  const h = hooksOf(d);
  const f = flagsOf(r.constraints as Record<string, unknown> | undefined, d);
  const now = r.now as number;
  const budget = r.budget as number;
  const all = blocksOf(r, t, d, h);
  const omitted: Omission[] = [];
  const omit = (b: Blk, site: Site, into: Omission[] = omitted): void => {
    b.state = 'omitted';
    b.site = site;
    into.push({ b, site });
  };

  filter(all, f, now, d, h, omit);

  // PIN-1, PIN-2: the live pinned blocks, in input order, whole or not at all.
  let pinned = all.filter((b) => b.state === 'live' && b.pinned);
  for (const b of pinned) b.state = 'pinned';
  const pinnedCost = sum(pinned);
  const overflowCost = d.expiredPinnedCounted ? sum(all.filter((b) => b.pinned)) : pinnedCost;
  if (overflowCost > budget) {
    if (d.pinnedOverflowAsInvalid)
      return { error: { code: 'invalid_request', message: `pinned blocks cost ${overflowCost} tokens, more than the budget of ${budget}` } };
    if (!d.pinnedOverflowTrimmed)
      return { error: { code: 'pinned_overflow', message: `pinned blocks cost ${pinnedCost} tokens, more than the budget of ${budget}` } };
    let left = budget;
    const kept: Blk[] = [];
    for (const b of pinned) {
      if (b.cost <= left) {
        left -= b.cost;
        kept.push(b);
      } else omit(b, 'pool');
    }
    pinned = kept;
  }
  let remaining = d.pinnedCostNotSubtracted ? budget : budget - sum(pinned);

  // TIER-3, CON-6: the other live blocks by the ranking key.
  const rank = rankComparator(f, d);
  let order = all.filter((b) => b.state === 'live').sort(rank);
  if (d.dropsNearDuplicates) {
    const kept: Blk[] = [];
    for (const b of order) {
      const head = twinHead(b.content);
      if (head !== undefined && kept.some((k) => k.source === b.source && twinHead(k.content) === head)) omit(b, 'pool');
      else kept.push(b);
    }
    order = kept;
  }
  const cap = f.max_segments === null ? null : Math.max(0, f.max_segments - (d.maxSegmentsCountsPinned ? pinned.length : 0));
  if (d.maxSegmentsBeforeSelection && cap !== null) {
    for (const b of order.slice(cap)) omit(b, 'max_segments');
    order = order.slice(0, cap);
  }

  const admitted: Blk[] = [];
  const late: Omission[] = [];
  remaining = admitRequired(order, f, remaining, d, admitted, (b) => omit(b, 'required', d.requiredOmissionsAfterPool ? late : omitted));
  /** False when a cap counted during selection turns the block away (it then costs nothing). */
  const admit = (b: Blk, state: Blk['state']): boolean => {
    if (d.maxSegmentsDuringSelection && cap !== null && admitted.length >= cap) {
      omit(b, 'max_segments');
      return false;
    }
    b.state = state;
    admitted.push(b);
    return true;
  };

  // TIER-2, TIER-4: each tier admits, by the ranking key, every block that fits what it has left.
  const tierBudgets = TIERS.map((tier) => tierBudget(remaining, t.percent[tier], h));
  const left = tierBudgets.slice();
  const stopped = [false, false, false, false];
  const aside: Blk[] = [];
  for (const b of order) {
    if (b.state !== 'live') continue;
    const k = TIERS.indexOf(b.tier);
    if (!stopped[k] && b.cost <= left[k]!) {
      if (admit(b, 'tier')) left[k]! -= b.cost;
    } else {
      if (d.prefixCut) stopped[k] = true;
      aside.push(b);
    }
  }

  // TIER-6, TIER-7: the pool is what the tiers left, without the rounding remainder.
  const unspent = left[0]! + left[1]! + left[2]! + left[3]!;
  let pool = d.noOverflowPool ? 0 : unspent + (d.remainderInPool ? Math.max(0, remaining) - tierBudgets.reduce((s, x) => s + x, 0) : 0);
  const pooled = h.poolOrder(aside);
  let closed = false;
  for (const b of pooled) {
    if (b.state !== 'live') continue;
    if (!closed && b.cost <= pool) {
      if (admit(b, 'overflow')) pool -= b.cost;
    } else if (!closed && d.truncatingFit && pool > 0) {
      if (admit(b, 'overflow')) {
        b.shown = Array.from(b.content)
          .slice(0, pool * t.cpt)
          .join('');
        b.cost = pool;
        pool = 0;
      }
    } else {
      if (d.poolPrefixCut) closed = true;
      omit(b, 'pool');
    }
  }
  omitted.push(...late);

  // CON-5: the first max_segments admitted blocks by the ranking key are kept.
  let kept = admitted.filter((b) => b.state !== 'omitted');
  if (cap !== null && !d.maxSegmentsBeforeSelection && !d.maxSegmentsDuringSelection) {
    const byKey = d.maxSegmentsByRenderOrder
      ? kept.slice().sort(renderComparator(f, d))
      : order.filter((b) => b.state === 'required' || b.state === 'tier' || b.state === 'overflow');
    for (const b of byKey.slice(cap)) omit(b, 'max_segments');
    kept = kept.filter((b) => b.state !== 'omitted');
  }

  return tieredAnswer(config, d, f, { all, pinned, kept, omitted, budget, now, h });
}

function sum(bs: readonly Blk[]): number {
  let s = 0;
  for (const b of bs) s += b.cost;
  return s;
}

type Pass = 'expiry' | 'exclusion' | 'lifecycle';
const IN_ORDER: readonly Pass[] = ['expiry', 'exclusion', 'lifecycle'];
const EXCLUDE_FIRST: readonly Pass[] = ['exclusion', 'expiry', 'lifecycle'];
const LIFECYCLE_FIRST: readonly Pass[] = ['expiry', 'lifecycle', 'exclusion'];

interface FilterContext {
  f: Flags;
  now: number;
  d: Defects;
  h: ModelHooks;
  required: ReadonlySet<string> | undefined;
  excluded: ReadonlySet<string> | undefined;
}

/** The omission one filter pass gives a block, if any. */
function passSite(pass: Pass, b: Blk, c: FilterContext): Site | undefined {
  const { f, d } = c;
  const spared = d.filtersSparePinned === true && b.pinned;
  switch (pass) {
    case 'expiry':
      if ((d.expiredPinnedKept && b.pinned) || (d.expiredRequiredKept && c.required?.has(b.id))) return undefined;
      return expired(c.now, b.createdAt, b.ttl, c.h) ? 'expired' : undefined;
    case 'exclusion':
      return c.excluded?.has(b.id) && !spared ? 'excluded' : undefined;
    case 'lifecycle':
      if (spared) return undefined;
      if (b.status === 'superseded' && !f.include_superseded) return 'superseded';
      if (b.status === 'disputed' && !f.include_disputed) return 'disputed';
      return undefined;
  }
}

/** EXP-2, CON-1, LIF-1..3: the filter passes, each in input order, in the order the defects run them. */
function filter(all: Blk[], f: Flags, now: number, d: Defects, h: ModelHooks, omit: (b: Blk, site: Site) => void): void {
  const c: FilterContext = {
    f,
    now,
    d,
    h,
    required: f.must_include.length > 0 ? new Set(f.must_include) : undefined,
    excluded: f.exclude.length > 0 ? new Set(f.exclude) : undefined,
  };
  const passes = d.excludeBeforeExpiry ? EXCLUDE_FIRST : d.lifecycleBeforeExclude ? LIFECYCLE_FIRST : IN_ORDER;
  if (d.filtersInOnePass) {
    for (const b of all) {
      for (const pass of passes) {
        const site = passSite(pass, b, c);
        if (site) {
          omit(b, site);
          break;
        }
      }
    }
    return;
  }
  for (const pass of passes) {
    for (const b of all) {
      if (b.state !== 'live') continue;
      const site = passSite(pass, b, c);
      if (site) omit(b, site);
    }
  }
}

/** CON-2, CON-3: the live required blocks, by the ranking key, each while it fits; returns what is left of B. */
function admitRequired(order: Blk[], f: Flags, remaining: number, d: Defects, admitted: Blk[], omit: (b: Blk) => void): number {
  if (f.must_include.length === 0) return remaining;
  const listed = new Set(f.must_include);
  let candidates = order.filter((b) => listed.has(b.id));
  if (d.requiredInListedOrder) {
    const byId = new Map(candidates.map((b) => [b.id, b]));
    candidates = [...new Set(f.must_include)].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }
  let left = remaining;
  let spent = 0;
  let closed = false;
  for (const b of candidates) {
    if (d.requiredForced || (!closed && b.cost <= left)) {
      left -= b.cost;
      spent += b.cost;
      b.state = 'required';
      admitted.push(b);
    } else {
      if (d.requiredPrefixCut) closed = true;
      omit(b);
    }
  }
  return d.requiredCostNotSubtracted ? remaining : remaining - spent;
}

interface Selected {
  all: Blk[];
  pinned: Blk[];
  kept: Blk[];
  omitted: Omission[];
  budget: number;
  now: number;
  h: ModelHooks;
}

function tieredAnswer(config: ModelConfig, d: Defects, f: Flags, s: Selected): Answer {
  const caps = config.capabilities;
  const render = renderComparator(f, d);
  const pinnedFirst = d.pinnedRenderOrder === 'rank' ? s.pinned.slice().sort(rankComparator(f, d)) : s.pinned;
  const inOrder = (bs: Blk[]): Blk[] => {
    if (d.pinnedRenderOrder === 'with-rest') return [...s.pinned, ...bs].sort(render);
    const rest = d.renderOrder === 'input' ? bs.slice().sort((x, y) => x.index - y.index) : d.renderOrder === 'selection' ? bs : bs.slice().sort(render);
    return [...pinnedFirst, ...rest];
  };
  const rendered = inOrder(s.kept);
  const reason = (site: Site): string => config.reasons?.[site] ?? SITE_REASONS[site];

  let context = renderContext(rendered, s, caps, d, inOrder);
  let estimated = sum(rendered);
  const ids = rendered.map((b) => b.id);
  const included = s.pinned.length === 0 ? ids : [...s.h.includedOrder(ids, new Set(s.pinned.map((b) => b.id)))];

  if (context === '') context = d.emptyPlaceholder ?? SPEC_RENDER.empty;
  else if (context !== '' && d.preamble !== undefined) context = d.preamble + context;
  if (d.contextSuffix !== undefined) context += d.contextSuffix;
  estimated = s.h.estimate(estimated, context);

  let omitted = s.omitted;
  if (d.omissionOrder === 'input') omitted = omitted.slice().sort((x, y) => x.b.index - y.b.index);
  else if (d.omissionOrder === 'expired-last') omitted = [...omitted.filter((o) => o.site !== 'expired'), ...omitted.filter((o) => o.site === 'expired')];
  const omissions = omitted.map((o) => ({ block_id: o.b.id, reason: reason(o.site) }));
  const result: Answer = { context, included, estimated_tokens: estimated, total_budget: s.budget, omissions };
  if (caps.includes('working_context')) Object.assign(result, workingContext(s, rendered, included, f, d));
  return result;
}

function renderContext(rendered: Blk[], s: Selected, caps: readonly string[], d: Defects, inOrder: (bs: Blk[]) => Blk[]): string {
  const joiner = d.joiner ?? SPEC_RENDER.separator;
  const written = d.headerSources;
  const sep = d.headerSeparator;
  const header =
    sep === undefined && written === undefined
      ? specHeader
      : (b: Blk): string => '[' + (written && Object.hasOwn(written, b.source) ? written[b.source] : b.source) + (sep ?? HEADER_SEPARATOR) + b.id + ']\n';
  const body = (b: Blk): string => s.h.body(b.shown);
  const marker = (b: Blk): string => {
    const line = b.site === 'max_segments' && !d.budgetMarkerForSegments ? MARKER_OVER_SEGMENTS : MARKER_OVER_BUDGET;
    return header(b) + line + (d.contentInMarker ? ' ' + b.content.slice(0, 12) : '');
  };
  if (!caps.includes('omission_markers') || d.noMarkers) return rendered.map((b) => header(b) + body(b)).join(joiner);

  // MRK-1..3: every block omitted for room leaves a marker where it would have rendered.
  const filtered = (b: Blk): boolean => b.site === 'excluded' || b.site === 'superseded' || b.site === 'disputed';
  const marks = (b: Blk): boolean =>
    b.state === 'omitted' &&
    (b.site === 'pool' || b.site === 'required' || (b.site === 'max_segments' && !d.noMarkerForMaxSegments) || (d.markerForFiltered === true && filtered(b)));
  const withMarkers = s.kept.concat(s.all.filter(marks));
  let pieces: string[];
  if (withMarkers.length === s.kept.length) pieces = rendered.map((b) => header(b) + body(b));
  else if (d.markerPlacement !== undefined) {
    const markers = inOrder(s.all.filter(marks))
      .filter((b) => b.state === 'omitted')
      .map(marker);
    const blocks = rendered.map((b) => header(b) + body(b));
    pieces = d.markerPlacement === 'first' ? [...markers, ...blocks] : [...blocks, ...markers];
  } else pieces = inOrder(withMarkers).map((b) => (b.state === 'omitted' ? marker(b) : header(b) + body(b)));
  if (d.markerForExpired) pieces.push(...s.all.filter((b) => b.state === 'omitted' && b.site === 'expired').map((b) => header(b) + MARKER_OVER_BUDGET));
  return pieces.join(joiner);
}

/** WC-1..5: segments, truncated, warnings and generated_at. */
function workingContext(s: Selected, rendered: Blk[], included: string[], f: Flags, d: Defects): Answer {
  const room = s.omitted.filter((o) => o.site === 'pool' || o.site === 'required' || (o.site === 'max_segments' && !d.truncatedIgnoresMaxSegments));
  const truncated = d.truncatedForAnyOmission ? s.omitted.length > 0 : room.length > 0;
  // The warning follows the flag (WC-4), unless only the flag is wrong.
  const warnTruncated = d.truncatedForAnyOmission && !d.truncatedWarningForAnyOmission ? room.length > 0 : truncated;
  const required = f.must_include;
  const segmentOrder = d.segmentsInSelectionOrder ? [...s.pinned, ...s.kept] : rendered;
  const segments = segmentOrder.map((b) => ({
    block_id: b.id,
    source: b.source,
    tier: b.tier,
    tokens: b.cost,
    score: d.segmentScoreIsTokens ? b.cost : b.priority,
    reason: segmentReason(b, required, d),
  }));
  const warnings: Answer[] = [];
  if (rendered.length === 0 && !d.noEmptyContextWarning) warnings.push({ code: 'empty_context', message: 'no block was included' });
  if (warnTruncated && !d.noTruncatedWarning) warnings.push({ code: 'truncated', message: 'some blocks were left out for budget or segment count' });
  if (!d.noRequiredWarning && f.must_include.length > 0) {
    const inContext = new Set(included);
    const known = new Set(s.all.map((b) => b.id));
    const done = new Set<string>();
    for (const id of f.must_include) {
      if (inContext.has(id) || (!d.requiredWarningPerListing && done.has(id))) continue;
      if (d.requiredWarningNeedsBlock && !known.has(id)) continue;
      done.add(id);
      warnings.push({ code: 'required_ref_omitted', block_id: id, message: 'a required block is not in the context' });
    }
  }
  if (!d.noLifecycleWarnings) {
    for (const b of rendered) {
      if (b.status === 'disputed') warnings.push({ code: 'disputed_memory_included', block_id: b.id, message: 'included block is disputed' });
      else if (b.status === 'superseded') warnings.push({ code: 'superseded_memory_included', block_id: b.id, message: 'included block is superseded' });
      else if (b.status === 'stale' && !d.staleNoWarning) warnings.push({ code: 'stale_consolidation', block_id: b.id, message: 'included block is stale' });
    }
  }
  if (d.retrievalWarning) warnings.push({ code: 'eventual_consistency' });
  return { segments, truncated, warnings, generated_at: d.generatedAt ?? s.now };
}

function segmentReason(b: Blk, required: readonly string[], d: Defects): string {
  if (d.segmentReasons === 'all-tier') return 'tier';
  if (d.segmentReasons === 'required-over-pinned' && b.state === 'pinned' && required.includes(b.id)) return 'required';
  if (d.segmentReasons === 'overflow-as-tier' && b.state === 'overflow') return 'tier';
  return b.state;
}

// ---------------------------------------------------------------- profile ranked

/** YYYY-MM-DD of the UTC day `days` after 1970-01-01. */
function dateOfDay(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

function ranked(r: Record<string, unknown>, config: ModelConfig, d: Defects): Answer {
  // DECL-3: ranked is not parameterized; only an undeclared change of the estimate reaches it.
  const cpt = d.charsPerToken ?? (d.rankedTakesDeclaredCharsPerToken ? config.constants?.chars_per_token : undefined) ?? SPEC_COUNT.charsPerToken;
  const h = hooksOf(d);
  const cost = (s: string): number => estimateOf(s, cpt, h);
  const now = r.now as number;
  const budget = r.budget as number;
  const omissions: { block_id: string; reason: string }[] = [];
  const reason = config.reasons?.ranked ?? SITE_REASONS.ranked;
  const expiredReason = config.reasons?.expired ?? SITE_REASONS.expired;
  type Line = { b: Record<string, unknown>; index: number };
  const live: Line[] = [];
  (r.blocks as Record<string, unknown>[]).forEach((b, index) => {
    const dated = b.created_at !== undefined;
    const ttl = h.rankedTtl((b.ttl_seconds as number | undefined) ?? 0, dated);
    if (expired(now, (b.created_at as number | undefined) ?? 0, ttl, h)) omissions.push({ block_id: b.block_id as string, reason: expiredReason });
    else live.push({ b, index });
  });
  // RANK-1: by -priority, ties in input order (a stable sort).
  live.sort(
    (x, y) =>
      byPriority(x.b.priority as number, y.b.priority as number, d) ||
      h.rankedTie({ id: x.b.block_id as string, index: x.index }, { id: y.b.block_id as string, index: y.index }),
  );
  const header = cost(RANKED_HEADER);
  let used = d.rankedHeaderNotCounted ? 0 : header;
  const lines: string[] = [];
  const included: string[] = [];
  let stopped = false;
  const segments: Answer[] = [];
  for (const { b } of live) {
    const line = '- [' + dateLabel(b, now, d) + '] ' + (b.content as string);
    const c = cost(h.rankedCostedText(line, b.content as string));
    if (stopped || used + c > budget) {
      if (h.rankedStopsAtMisfit) stopped = true;
      omissions.push({ block_id: b.block_id as string, reason });
      continue;
    }
    used += c;
    lines.push(line);
    included.push(b.block_id as string);
    segments.push({ block_id: b.block_id, source: b.source, tier: 'working', tokens: c, score: b.priority, reason: 'rank' });
  }
  const any = lines.length > 0;
  const result: Answer = {
    context: any ? RANKED_HEADER + '\n' + lines.join('\n') : d.rankedHeaderAlways ? RANKED_HEADER : '',
    included,
    estimated_tokens: any ? used : d.rankedHeaderAlways ? used : 0,
    total_budget: budget,
    omissions,
  };
  if (d.rankedCapabilityMembers && config.capabilities.includes('working_context')) {
    const truncated = included.length < live.length;
    const warnings: Answer[] = [];
    if (!any) warnings.push({ code: 'empty_context', message: 'no block was included' });
    if (truncated) warnings.push({ code: 'truncated', message: 'some blocks were left out for budget or segment count' });
    Object.assign(result, { segments, truncated, warnings, generated_at: now });
  }
  return result;
}

function dateLabel(b: Record<string, unknown>, now: number, d: Defects): string {
  if (b.created_at === undefined && !d.rankedUndatedAsEpoch) return 'undated';
  const at = d.rankedDateFromNow ? now : ((b.created_at as number | undefined) ?? 0);
  return dateOfDay((d.rankedDateTruncated ? Math.trunc : Math.floor)(at / 86400));
}

// ---------------------------------------------------------------- habits of the whole answer

function resultHabits(a: Answer, d: Defects): Answer {
  let out = a;
  const h = hooksOf(d);
  const omissions = out.omissions as { block_id: string; reason: string }[];
  const listed = omissions.filter(h.listsOmission);
  if (listed.length !== omissions.length || d.omissionOrder === 'by-id') {
    const o = d.omissionOrder === 'by-id' ? [...listed].sort((x, y) => (x.block_id < y.block_id ? -1 : 1)) : listed;
    out = { ...out, omissions: o };
  }
  const total = h.totalBudget(out.total_budget as number, out.estimated_tokens as number);
  if (total !== out.total_budget) out = { ...out, total_budget: total };
  if (d.extraMembers) {
    out = { ...out };
    for (const [k, v] of Object.entries(d.extraMembers)) if (!Object.hasOwn(out, k)) out[k] = v;
  }
  if (d.missingMembers) {
    out = { ...out };
    for (const m of d.missingMembers) delete out[m];
  }
  return out;
}

/** The tier of a source under the specification's map and the declared one (TIER-1, DECL-2). */
export function tierUnder(source: string, constants?: DeclaredConstants): Tier {
  return tuning({ capabilities: [], constants }, NO_DEFECTS).tierOf(source);
}
