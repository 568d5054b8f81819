/**
 * The defect model: a second assembler of both profiles, every capability of
 * SPEC section 8 and declared constants (section 17), written from the spec
 * in plain code, with a named hook (hooks.ts) at each point where an
 * implementation can read the spec otherwise. With every hook at the
 * specification's reading it answers exactly as reference/ does
 * (test/diagnose/model.test.ts holds it to that over random requests and the
 * corpus); with a defect's hooks (defects/) it answers as an implementation
 * with that defect would, so two defects together are an implementation with
 * both.
 *
 * It is a model, not the oracle: reference/ stays pure and reads as the spec,
 * and nothing here is a hook in it. The model is the specification's design
 * (reference/design.ts) read plainly. Validation is borrowed from the reference
 * (a lenient validator is modelled as a rewrite of the request before it, a
 * wrong error as a rewrite of its answer); the tiered and ranked algorithms
 * are the model's own.
 */
import {
  countTokens,
  HEADER_SEPARATOR,
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
  SPEC_TIERS,
  TIERS,
  validateRequest,
} from '../reference/index.js';
import type { DeclaredConstants, Tier } from '../protocol/assembly.js';
import { isObject } from './json-object.js';
import { byCodePoint, hooksOf, SPEC_HOOKS, specHeader } from './hooks.js';
import type { ModelBlock as Blk, ModelHooks, Rec, Site } from './hooks.js';

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
 * A defect set: the hooks it overrides (hooks.ts), each of the others the
 * specification's reading. The catalogue (catalogue.ts, defects/) names
 * them, with the requirement each breaks.
 */
export type Defects = Partial<ModelHooks>;

export type Answer = Rec;

const NO_DEFECTS: Defects = Object.freeze({});

interface Omission {
  b: Blk;
  site: Site;
}

const has = Object.hasOwn;

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
  const h = hooksOf(d);
  const req = isObject(request) ? readRequest(request, h) : request;
  if (isObject(req) && h.refuses(req)) {
    return { error: { code: 'invalid_request', message: 'the request has a member the specification does not define' } };
  }
  const problems = problemsOf(req, memo);
  if (problems.length > 0) return h.invalidAnswer(problems);
  const r = req as Rec;
  const answer = r.profile === 'ranked' ? ranked(r, config, h) : tiered(r, config, h);
  return 'error' in answer ? answer : resultHabits(answer, h);
}

/** The request as the implementation reads it before validating it: each reading a hook, the specification's leaving it as it is. */
function readRequest(r: Rec, h: ModelHooks): Rec {
  return h.readRanked(h.readDuplicates(h.readStatus(h.readTtl(h.readBudget(h.readNulls(h.readNonFinite(r)))))));
}

// ---------------------------------------------------------------- constants

interface Tuning {
  cpt: number;
  percent: Readonly<Record<Tier, number>>;
  tierOf: (source: string) => Tier;
}

/** The constants the implementation uses: the declared ones (section 17), with the defects' own values over them. */
function tuning(config: ModelConfig, h: ModelHooks): Tuning {
  const c = config.constants;
  const cpt = h.charsPerToken ?? (h.readsDeclaredCharsPerToken ? c?.chars_per_token : undefined) ?? SPEC_COUNT.charsPerToken;
  const percent = h.tierPercent ?? (h.readsDeclaredSplit ? c?.tier_fractions : undefined) ?? SPEC_TIERS.percent;
  const declared = h.readsDeclaredSources ? c?.source_to_tier : undefined;
  const moved = h.sourceToTier;
  const table = SPEC_TIERS.sourceToTier;
  const unlisted = h.unlistedTier;
  const tierOf = (source: string): Tier => {
    let key = h.caseInsensitiveSources ? source.toLowerCase() : source;
    if (h.hyphensAsUnderscores) key = key.replace(/-/g, '_');
    if (moved !== undefined && has(moved, key)) return moved[key]!;
    if (declared !== undefined && has(declared, key)) return declared[key]!;
    return has(table, key) ? table[key]! : unlisted;
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
function flagsOf(k: Rec | undefined, h: ModelHooks): Flags {
  const get = <T>(name: string, dflt: T): T => (k !== undefined && has(k, name) && k[name] !== null && k[name] !== undefined ? (k[name] as T) : dflt);
  return {
    must_include: [...h.mustInclude(get<string[]>('must_include', []))],
    exclude: [...h.exclude(get<string[]>('exclude', []))],
    max_segments: h.maxSegments(get<number | null>('max_segments', null)),
    include_disputed: get('include_disputed', h.includeDisputedByDefault),
    include_superseded: get('include_superseded', h.includeSupersededByDefault),
    ...h.preferences({ prefer_recency: get('prefer_recency', false), prefer_high_confidence: get('prefer_high_confidence', false) }),
  };
}

/** EXP-1: a block expires when its ttl applies and now is past created_at + ttl. */
function expired(now: number, createdAt: number, ttl: number, h: ModelHooks): boolean {
  return h.expires(ttl) && h.pastEnd(now, createdAt + ttl);
}

function blocksOf(r: Rec, t: Tuning, h: ModelHooks): Blk[] {
  return (r.blocks as Rec[]).map((b, index) => {
    const content = b.content as string;
    const priority = b.priority as number;
    const source = b.source as string;
    const id = b.block_id as string;
    let status = h.readsStatus ? ((b.status as string | undefined) ?? 'active') : 'active';
    if (h.staleAsSuperseded && status === 'stale') status = 'superseded';
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
      pinned: b.pinned === true && h.readsPinned,
      status,
      confidence: (b.confidence as number | undefined) ?? 1,
      cost: estimateOf(counted, t.cpt, h),
      tier: t.tierOf(source),
      state: 'live',
    };
  });
}

/** Higher priority first (NUM-5: -0 equals 0, unless the defect orders them); `selection` is the ranking sort, which a defect may run ascending. */
function byPriority(p: number, q: number, h: ModelHooks, selection = false): number {
  if (p !== q) return (p > q ? -1 : 1) * (selection && h.priorityAscending ? -1 : 1);
  if (h.signedZeroOrder && !Object.is(p, q)) return Object.is(p, -0) ? 1 : -1;
  return 0;
}

/** CON-6: the preferences' part of the ranking key, [-confidence], [-created_at]. */
function preferenceOrder(f: Flags, h: ModelHooks): (x: Blk, y: Blk) => number {
  return (x, y) => {
    if (f.prefer_high_confidence && x.confidence !== y.confidence) return x.confidence > y.confidence ? -1 : 1;
    if (f.prefer_recency && x.createdAt !== y.createdAt) return (x.createdAt > y.createdAt ? -1 : 1) * (h.recencyAscending ? -1 : 1);
    return 0;
  };
}

/** TIER-3 with CON-6: (-priority, [-confidence], [-created_at], block_id), as the defects read it. */
function rankComparator(f: Flags, h: ModelHooks): (x: Blk, y: Blk) => number {
  const prefs = preferenceOrder(f, h);
  const ties = (x: Blk, y: Blk): number => h.tieBreak(x, y, h.compareIds);
  if (h.preferencesBeforePriority) return (x, y) => prefs(x, y) || byPriority(x.rank, y.rank, h, true) || ties(x, y);
  return (x, y) => byPriority(x.rank, y.rank, h, true) || prefs(x, y) || ties(x, y);
}

/** REN-1: (source, -priority, block_id), strings by code points, as the defects read it. */
function renderComparator(f: Flags, h: ModelHooks): (x: Blk, y: Blk) => number {
  const idCmp = h.compareIds;
  if (h.renderOrder === 'priority') return (x, y) => byPriority(x.priority, y.priority, h) || idCmp(x.id, y.id);
  // A design that lets the preferences order the render too ranks within a source by the whole ranking key, ties by id.
  const prefs = preferenceOrder(f, h);
  const within = h.preferencesInRender
    ? (x: Blk, y: Blk) => byPriority(x.rank, y.rank, h, true) || prefs(x, y) || idCmp(x.id, y.id)
    : (x: Blk, y: Blk) => byPriority(x.priority, y.priority, h) || idCmp(x.id, y.id);
  return (x, y) => byCodePoint(x.source, y.source) || within(x, y);
}

function twinHead(s: string): string | undefined {
  const cps = Array.from(s);
  return cps.length >= 8 ? cps.slice(0, 8).join('') : undefined;
}

/** One tiered assembly's blocks and omissions as selection moves them. */
interface Selection {
  all: Blk[];
  omitted: Omission[];
  omit(b: Blk, site: Site, into?: Omission[]): void;
}

function tiered(r: Rec, config: ModelConfig, h: ModelHooks): Answer {
  const t = tuning(config, h);
  const f = flagsOf(r.constraints as Rec | undefined, h);
  const now = r.now as number;
  const budget = r.budget as number;
  const all = blocksOf(r, t, h);
  const omitted: Omission[] = [];
  const sel: Selection = {
    all,
    omitted,
    omit(b, site, into = omitted) {
      b.state = 'omitted';
      b.site = site;
      into.push({ b, site });
    },
  };

  filter(all, f, now, h, sel.omit);
  const pinned = pinnedOf(sel, budget, h);
  if (!Array.isArray(pinned)) return pinned;
  const remaining = h.pinnedCostSubtracted ? budget - sum(pinned) : budget;

  // TIER-3, CON-6: the other live blocks by the ranking key.
  const rank = rankComparator(f, h);
  let order = all.filter((b) => b.state === 'live').sort(rank);
  if (h.dropsNearDuplicates) order = withoutTwins(order, sel);
  const cap = f.max_segments === null ? null : Math.max(0, f.max_segments - (h.maxSegmentsCountsPinned ? pinned.length : 0));
  if (h.maxSegmentsCut === 'before' && cap !== null) {
    for (const b of order.slice(cap)) sel.omit(b, 'max_segments');
    order = order.slice(0, cap);
  }

  const admitted: Blk[] = [];
  const late: Omission[] = [];
  const left = admitRequired(order, f, remaining, h, admitted, (b) => sel.omit(b, 'required', h.requiredOmissionsAfterPool ? late : omitted));
  /** False when a cap counted during selection turns the block away (it then costs nothing). */
  const admit = (b: Blk, state: Blk['state']): boolean => {
    if (h.maxSegmentsCut === 'during' && cap !== null && admitted.length >= cap) {
      sel.omit(b, 'max_segments');
      return false;
    }
    b.state = state;
    admitted.push(b);
    return true;
  };
  const tiers = admitByTier(order, left, t, h, admit);
  // TIER-6, TIER-7: the pool is what the tiers left, without the rounding remainder.
  const pool = h.overflowPool ? tiers.unspent + (h.remainderInPool ? Math.max(0, left) - tiers.split : 0) : 0;
  admitFromPool(tiers.aside, pool, t, h, admit, sel);
  omitted.push(...late);

  // CON-5: the first max_segments admitted blocks by the ranking key are kept.
  let kept = admitted.filter((b) => b.state !== 'omitted');
  if (cap !== null && (h.maxSegmentsCut === 'after' || h.maxSegmentsCut === 'render-order')) {
    const byKey =
      h.maxSegmentsCut === 'render-order'
        ? kept.slice().sort(renderComparator(f, h))
        : order.filter((b) => b.state === 'required' || b.state === 'tier' || b.state === 'overflow');
    for (const b of byKey.slice(cap)) sel.omit(b, 'max_segments');
    kept = kept.filter((b) => b.state !== 'omitted');
  }

  return tieredAnswer(config, h, f, { all, pinned, kept, omitted, budget, now });
}

/** PIN-1, PIN-2: the live pinned blocks, in input order, whole or not at all; or the answer to pinned blocks that cost more than B. */
function pinnedOf(sel: Selection, budget: number, h: ModelHooks): Blk[] | Answer {
  const pinned = sel.all.filter((b) => b.state === 'live' && b.pinned);
  for (const b of pinned) b.state = 'pinned';
  const pinnedCost = sum(pinned);
  const overflowCost = h.expiredPinnedCounted ? sum(sel.all.filter((b) => b.pinned)) : pinnedCost;
  if (overflowCost <= budget) return pinned;
  if (h.pinnedOverflow === 'invalid_request')
    return { error: { code: 'invalid_request', message: `pinned blocks cost ${overflowCost} tokens, more than the budget of ${budget}` } };
  if (h.pinnedOverflow === 'pinned_overflow')
    return { error: { code: 'pinned_overflow', message: `pinned blocks cost ${pinnedCost} tokens, more than the budget of ${budget}` } };
  let left = budget;
  const kept: Blk[] = [];
  for (const b of pinned) {
    if (b.cost <= left) {
      left -= b.cost;
      kept.push(b);
    } else sel.omit(b, 'pool');
  }
  return kept;
}

/** The ranked blocks without those whose first 8 characters repeat an earlier kept one's of the same source. */
function withoutTwins(order: Blk[], sel: Selection): Blk[] {
  const kept: Blk[] = [];
  for (const b of order) {
    const head = twinHead(b.content);
    if (head !== undefined && kept.some((k) => k.source === b.source && twinHead(k.content) === head)) sel.omit(b, 'pool');
    else kept.push(b);
  }
  return kept;
}

/**
 * TIER-2, TIER-4: each tier admits, by the ranking key, every block that fits
 * what it has left; returns the blocks set aside (in ranking order), what the
 * tier budgets add up to and what they left unspent.
 */
function admitByTier(
  order: readonly Blk[],
  remaining: number,
  t: Tuning,
  h: ModelHooks,
  admit: (b: Blk, state: Blk['state']) => boolean,
): { aside: Blk[]; split: number; unspent: number } {
  const budgets = TIERS.map((tier) => tierBudget(remaining, t.percent[tier], h));
  const left = budgets.slice();
  const stopped = [false, false, false, false];
  const aside: Blk[] = [];
  for (const b of order) {
    if (b.state !== 'live') continue;
    const k = TIERS.indexOf(b.tier);
    if (!stopped[k] && b.cost <= left[k]!) {
      if (admit(b, 'tier')) left[k]! -= b.cost;
    } else {
      if (h.prefixCut) stopped[k] = true;
      aside.push(b);
    }
  }
  return { aside, split: budgets.reduce((s, x) => s + x, 0), unspent: left[0]! + left[1]! + left[2]! + left[3]! };
}

/** TIER-7: the pool admits what the tiers set aside, in the pool's order, each while it fits. */
function admitFromPool(aside: readonly Blk[], size: number, t: Tuning, h: ModelHooks, admit: (b: Blk, state: Blk['state']) => boolean, sel: Selection): void {
  let pool = size;
  let closed = false;
  for (const b of h.poolOrder(aside)) {
    if (b.state !== 'live') continue;
    if (!closed && b.cost <= pool) {
      if (admit(b, 'overflow')) pool -= b.cost;
    } else if (!closed && h.truncatingFit && pool > 0) {
      if (admit(b, 'overflow')) {
        b.shown = Array.from(b.content)
          .slice(0, pool * t.cpt)
          .join('');
        b.cost = pool;
        pool = 0;
      }
    } else {
      if (h.poolPrefixCut) closed = true;
      sel.omit(b, 'pool');
    }
  }
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
  h: ModelHooks;
  required: ReadonlySet<string> | undefined;
  excluded: ReadonlySet<string> | undefined;
}

/** The omission one filter pass gives a block, if any. */
function passSite(pass: Pass, b: Blk, c: FilterContext): Site | undefined {
  const { f, h } = c;
  const spared = h.filtersSparePinned && b.pinned;
  switch (pass) {
    case 'expiry':
      if ((h.expiredPinnedKept && b.pinned) || (h.expiredRequiredKept && c.required?.has(b.id))) return undefined;
      return expired(c.now, b.createdAt, b.ttl, h) ? 'expired' : undefined;
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
function filter(all: Blk[], f: Flags, now: number, h: ModelHooks, omit: (b: Blk, site: Site) => void): void {
  const c: FilterContext = {
    f,
    now,
    h,
    required: f.must_include.length > 0 ? new Set(f.must_include) : undefined,
    excluded: f.exclude.length > 0 ? new Set(f.exclude) : undefined,
  };
  const passes = h.excludeBeforeExpiry ? EXCLUDE_FIRST : h.lifecycleBeforeExclude ? LIFECYCLE_FIRST : IN_ORDER;
  if (h.filtersInOnePass) {
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
function admitRequired(order: Blk[], f: Flags, remaining: number, h: ModelHooks, admitted: Blk[], omit: (b: Blk) => void): number {
  if (f.must_include.length === 0) return remaining;
  const listed = new Set(f.must_include);
  let candidates = order.filter((b) => listed.has(b.id));
  if (h.requiredInListedOrder) {
    const byId = new Map(candidates.map((b) => [b.id, b]));
    candidates = [...new Set(f.must_include)].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }
  let left = remaining;
  let spent = 0;
  let closed = false;
  for (const b of candidates) {
    if (h.requiredForced || (!closed && b.cost <= left)) {
      left -= b.cost;
      spent += b.cost;
      b.state = 'required';
      admitted.push(b);
    } else {
      if (h.requiredPrefixCut) closed = true;
      omit(b);
    }
  }
  return h.requiredCostSubtracted ? remaining - spent : remaining;
}

interface Selected {
  all: Blk[];
  pinned: Blk[];
  kept: Blk[];
  omitted: Omission[];
  budget: number;
  now: number;
}

function tieredAnswer(config: ModelConfig, h: ModelHooks, f: Flags, s: Selected): Answer {
  const caps = config.capabilities;
  const render = renderComparator(f, h);
  const pinnedFirst = h.pinnedRenderOrder === 'rank' ? s.pinned.slice().sort(rankComparator(f, h)) : s.pinned;
  const inOrder = (bs: Blk[]): Blk[] => {
    if (h.pinnedRenderOrder === 'with-rest') return [...s.pinned, ...bs].sort(render);
    const rest = h.renderOrder === 'input' ? bs.slice().sort((x, y) => x.index - y.index) : h.renderOrder === 'selection' ? bs : bs.slice().sort(render);
    return [...pinnedFirst, ...rest];
  };
  const rendered = inOrder(s.kept);
  const reason = (site: Site): string => config.reasons?.[site] ?? SITE_REASONS[site];

  let context = renderContext(rendered, s, caps, h, inOrder);
  const ids = rendered.map((b) => b.id);
  const included = s.pinned.length === 0 ? ids : [...h.includedOrder(ids, new Set(s.pinned.map((b) => b.id)))];

  context = context === '' ? h.emptyPlaceholder : h.preamble + context;
  context += h.contextSuffix;
  const estimated = h.estimate(sum(rendered), context);

  let omitted = s.omitted;
  if (h.omissionOrder === 'input') omitted = omitted.slice().sort((x, y) => x.b.index - y.b.index);
  else if (h.omissionOrder === 'expired-last') omitted = [...omitted.filter((o) => o.site !== 'expired'), ...omitted.filter((o) => o.site === 'expired')];
  const omissions = omitted.map((o) => ({ block_id: o.b.id, reason: reason(o.site) }));
  const result: Answer = { context, included, estimated_tokens: estimated, total_budget: s.budget, omissions };
  if (caps.includes('working_context')) Object.assign(result, workingContext(s, rendered, included, f, h));
  return result;
}

function renderContext(rendered: Blk[], s: Selected, caps: readonly string[], h: ModelHooks, inOrder: (bs: Blk[]) => Blk[]): string {
  const written = h.headerSources;
  const sep = h.headerSeparator;
  const header =
    sep === HEADER_SEPARATOR && written === undefined
      ? specHeader
      : (b: Blk): string => '[' + (written && has(written, b.source) ? written[b.source] : b.source) + sep + b.id + ']\n';
  const body = (b: Blk): string => h.body(b.shown);
  const marker = (b: Blk): string => {
    const line = b.site === 'max_segments' && !h.budgetMarkerForSegments ? MARKER_OVER_SEGMENTS : MARKER_OVER_BUDGET;
    return header(b) + line + (h.contentInMarker ? ' ' + b.content.slice(0, 12) : '');
  };
  if (!caps.includes('omission_markers') || !h.markers) return rendered.map((b) => header(b) + body(b)).join(h.joiner);

  // MRK-1..3: every block omitted for room leaves a marker where it would have rendered.
  const filtered = (b: Blk): boolean => b.site === 'excluded' || b.site === 'superseded' || b.site === 'disputed';
  const marks = (b: Blk): boolean =>
    b.state === 'omitted' &&
    (b.site === 'pool' || b.site === 'required' || (b.site === 'max_segments' && h.markerForMaxSegments) || (h.markerForFiltered && filtered(b)));
  const withMarkers = s.kept.concat(s.all.filter(marks));
  let pieces: string[];
  if (withMarkers.length === s.kept.length) pieces = rendered.map((b) => header(b) + body(b));
  else if (h.markerPlacement !== 'in-place') {
    const markers = inOrder(s.all.filter(marks))
      .filter((b) => b.state === 'omitted')
      .map(marker);
    const blocks = rendered.map((b) => header(b) + body(b));
    pieces = h.markerPlacement === 'first' ? [...markers, ...blocks] : [...blocks, ...markers];
  } else pieces = inOrder(withMarkers).map((b) => (b.state === 'omitted' ? marker(b) : header(b) + body(b)));
  if (h.markerForExpired) pieces.push(...s.all.filter((b) => b.state === 'omitted' && b.site === 'expired').map((b) => header(b) + MARKER_OVER_BUDGET));
  return pieces.join(h.joiner);
}

/** WC-1..5: segments, truncated, warnings and generated_at. */
function workingContext(s: Selected, rendered: Blk[], included: string[], f: Flags, h: ModelHooks): Answer {
  const room = s.omitted.filter((o) => o.site === 'pool' || o.site === 'required' || (o.site === 'max_segments' && h.truncatedCountsMaxSegments));
  const truncated = h.truncatedBy === 'any' ? s.omitted.length > 0 : room.length > 0;
  // The warning follows the flag (WC-4), unless only the flag is wrong.
  const warnTruncated = h.truncatedBy === 'any' && !h.truncatedWarningFollowsFlag ? room.length > 0 : truncated;
  const required = f.must_include;
  const segmentOrder = h.segmentsInSelectionOrder ? [...s.pinned, ...s.kept] : rendered;
  const segments = segmentOrder.map((b) => ({
    block_id: b.id,
    source: b.source,
    tier: b.tier,
    tokens: b.cost,
    score: h.segmentScore === 'tokens' ? b.cost : b.priority,
    reason: segmentReason(b, required, h),
  }));
  const warnings: Answer[] = [];
  if (rendered.length === 0 && h.emptyContextWarning) warnings.push({ code: 'empty_context', message: 'no block was included' });
  if (warnTruncated && h.truncatedWarning) warnings.push({ code: 'truncated', message: 'some blocks were left out for budget or segment count' });
  if (h.requiredWarning && f.must_include.length > 0) {
    const inContext = new Set(included);
    const known = new Set(s.all.map((b) => b.id));
    const done = new Set<string>();
    for (const id of f.must_include) {
      if (inContext.has(id) || (!h.requiredWarningPerListing && done.has(id))) continue;
      if (h.requiredWarningNeedsBlock && !known.has(id)) continue;
      done.add(id);
      warnings.push({ code: 'required_ref_omitted', block_id: id, message: 'a required block is not in the context' });
    }
  }
  if (h.lifecycleWarnings) {
    for (const b of rendered) {
      if (b.status === 'disputed') warnings.push({ code: 'disputed_memory_included', block_id: b.id, message: 'included block is disputed' });
      else if (b.status === 'superseded') warnings.push({ code: 'superseded_memory_included', block_id: b.id, message: 'included block is superseded' });
      else if (b.status === 'stale' && h.staleWarning) warnings.push({ code: 'stale_consolidation', block_id: b.id, message: 'included block is stale' });
    }
  }
  if (h.retrievalWarning) warnings.push({ code: 'eventual_consistency' });
  return { segments, truncated, warnings, generated_at: h.generatedAt ?? s.now };
}

function segmentReason(b: Blk, required: readonly string[], h: ModelHooks): string {
  if (h.segmentReasons === 'all-tier') return 'tier';
  if (h.segmentReasons === 'required-over-pinned' && b.state === 'pinned' && required.includes(b.id)) return 'required';
  if (h.segmentReasons === 'overflow-as-tier' && b.state === 'overflow') return 'tier';
  return b.state;
}

// ---------------------------------------------------------------- profile ranked

/** YYYY-MM-DD of the UTC day `days` after 1970-01-01. */
function dateOfDay(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

function ranked(r: Rec, config: ModelConfig, h: ModelHooks): Answer {
  // DECL-3: ranked is not parameterized; only an undeclared change of the estimate reaches it.
  const cpt = h.charsPerToken ?? (h.rankedTakesDeclaredCharsPerToken ? config.constants?.chars_per_token : undefined) ?? SPEC_COUNT.charsPerToken;
  const cost = (s: string): number => estimateOf(s, cpt, h);
  const now = r.now as number;
  const budget = r.budget as number;
  const omissions: { block_id: string; reason: string }[] = [];
  const reason = config.reasons?.ranked ?? SITE_REASONS.ranked;
  const expiredReason = config.reasons?.expired ?? SITE_REASONS.expired;
  type Line = { b: Rec; index: number };
  const live: Line[] = [];
  (r.blocks as Rec[]).forEach((b, index) => {
    const dated = b.created_at !== undefined;
    const ttl = h.rankedTtl((b.ttl_seconds as number | undefined) ?? 0, dated);
    if (expired(now, (b.created_at as number | undefined) ?? 0, ttl, h)) omissions.push({ block_id: b.block_id as string, reason: expiredReason });
    else live.push({ b, index });
  });
  // RANK-1: by -priority, ties in input order (a stable sort).
  live.sort(
    (x, y) =>
      byPriority(x.b.priority as number, y.b.priority as number, h) ||
      h.rankedTie({ id: x.b.block_id as string, index: x.index }, { id: y.b.block_id as string, index: y.index }),
  );
  let used = h.rankedHeaderCounted ? cost(RANKED_HEADER) : 0;
  const lines: string[] = [];
  const included: string[] = [];
  let stopped = false;
  const segments: Answer[] = [];
  for (const { b } of live) {
    const line = '- [' + dateLabel(b, now, h) + '] ' + (b.content as string);
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
    context: any ? RANKED_HEADER + '\n' + lines.join('\n') : h.rankedHeaderAlways ? RANKED_HEADER : '',
    included,
    estimated_tokens: any || h.rankedHeaderAlways ? used : 0,
    total_budget: budget,
    omissions,
  };
  if (h.rankedCapabilityMembers && config.capabilities.includes('working_context')) {
    const truncated = included.length < live.length;
    const warnings: Answer[] = [];
    if (!any) warnings.push({ code: 'empty_context', message: 'no block was included' });
    if (truncated) warnings.push({ code: 'truncated', message: 'some blocks were left out for budget or segment count' });
    Object.assign(result, { segments, truncated, warnings, generated_at: now });
  }
  return result;
}

function dateLabel(b: Rec, now: number, h: ModelHooks): string {
  if (b.created_at === undefined && !h.rankedUndatedAsEpoch) return 'undated';
  const at = h.rankedDateFromNow ? now : ((b.created_at as number | undefined) ?? 0);
  return dateOfDay((h.rankedDateTruncated ? Math.trunc : Math.floor)(at / 86400));
}

// ---------------------------------------------------------------- habits of the whole answer

function resultHabits(a: Answer, h: ModelHooks): Answer {
  let out = a;
  const omissions = out.omissions as { block_id: string; reason: string }[];
  const listed = omissions.filter(h.listsOmission);
  if (listed.length !== omissions.length || h.omissionOrder === 'by-id') {
    const o = h.omissionOrder === 'by-id' ? [...listed].sort((x, y) => (x.block_id < y.block_id ? -1 : 1)) : listed;
    out = { ...out, omissions: o };
  }
  const total = h.totalBudget(out.total_budget as number, out.estimated_tokens as number);
  if (total !== out.total_budget) out = { ...out, total_budget: total };
  if (h.extraMembers) {
    out = { ...out };
    for (const [k, v] of Object.entries(h.extraMembers)) if (!has(out, k)) out[k] = v;
  }
  if (h.missingMembers) {
    out = { ...out };
    for (const m of h.missingMembers) delete out[m];
  }
  return out;
}

/** The tier of a source under the specification's map and the declared one (TIER-1, DECL-2). */
export function tierUnder(source: string, constants?: DeclaredConstants): Tier {
  return tuning({ capabilities: [], constants }, SPEC_HOOKS).tierOf(source);
}
