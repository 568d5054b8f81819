import {
  MARKER_OVER_BUDGET,
  MARKER_OVER_SEGMENTS,
  REASON_BUDGET,
  REASON_DISPUTED,
  REASON_EXCLUDED,
  REASON_EXPIRED,
  REASON_MAX_SEGMENTS,
  REASON_SUPERSEDED,
  REASON_TIER_BUDGET,
} from './constants.js';
import { HEADER_SEPARATOR, SEGMENT_JOINER, TIERS } from './design.js';
import { tierBudget, tokensFor } from './estimate.js';
import { bytes } from './block-arrays.js';
import type { Bytes } from './block-arrays.js';
import { stableSort } from './merge-sort.js';
import { NO_PREFERENCES, rankComparator, rankOrder, renderOrderFromRanked } from './order.js';
import { SPEC_TUNING } from './tuning.js';
import type { Tuning } from './tuning.js';
import type { Capability, Constraints, ErrorAnswer, Omission, Result, Segment, SegmentReason, Warning } from '../protocol/assembly.js';
import { DISPUTED, STALE, SUPERSEDED } from './validate.js';
import type { NormalRequest } from './validate.js';

/** Where a block stands: live until omitted or admitted. */
const LIVE = 0;
const PINNED = 1;
const REQUIRED = 2;
const TIER = 3;
const OVERFLOW = 4;
const OMITTED = 5;
/** Omitted for room (class budget or max_segments): the omissions that leave a marker (MRK-1). */
const OMITTED_FOR_BUDGET = 6;
const OMITTED_FOR_SEGMENTS = 7;
const SEGMENT_REASON: readonly (SegmentReason | null)[] = [null, 'pinned', 'required', 'tier', 'overflow', null, null, null];

/**
 * The blocks of one request as selection goes: where each stands, what it
 * costs, and the omissions so far, in the order of TIER-8 (section 13). Blocks are named
 * by their index in the request; what selection reads of them is in the
 * request's columns.
 */
class Selection {
  readonly state: Bytes;
  readonly omissions: Omission[] = [];

  constructor(
    readonly r: NormalRequest,
    private readonly charsPerToken: number,
  ) {
    this.state = bytes(r.ids.length, 'state'); // every block LIVE
  }

  /** NUM-2: a block costs estimate_tokens(content), with the declared chars per token (section 17). */
  cost(i: number): number {
    return tokensFor(this.r.codePoints[i]!, this.charsPerToken);
  }

  omit(i: number, reason: string, state = OMITTED): void {
    this.state[i] = state;
    this.omissions.push({ block_id: this.r.ids[i]!, reason });
  }
}

/**
 * SPEC section 5 (profile `tiered`) with every capability of section 8: the
 * specification's design (design.ts SPEC_DESIGN) computed fast, with the
 * tables read from there. The live blocks are sorted once by the ranking key,
 * and every later step walks that order. Each step is a function of its own, named for what it does.
 * `tuning` holds the constants (section 17: the specification's by default).
 */
export function assembleTiered(r: NormalRequest, caps: ReadonlySet<Capability>, tuning: Tuning = SPEC_TUNING): Result | ErrorAnswer {
  const k = r.constraints;
  const s = new Selection(r, tuning.charsPerToken);
  omitExpired(s);
  if (k.exclude.length > 0) omitExcluded(s, k.exclude);
  omitByStatus(s, k);
  const pinned = pinFirst(s);
  const pinnedCost = costOf(s, pinned);
  // PIN-2: the pinned blocks whole or not at all.
  if (pinnedCost > r.budget) {
    return {
      error: {
        code: 'pinned_overflow',
        message: `pinned blocks cost ${pinnedCost} tokens, more than the budget of ${r.budget}`,
      },
    };
  }
  // TIER-3, CON-6: the other live blocks by the ranking key, the order every later step walks.
  const order = rankOrder(r, s.state, LIVE, k);
  let remaining = r.budget - pinnedCost; // PIN-3
  if (k.must_include.length > 0) remaining = admitRequired(s, order, k.must_include, remaining);
  const tierOfSource = r.sources.map((source) => TIERS.indexOf(tuning.tierOf(source))); // TIER-1, once per source
  const pool = admitByTier(s, order, tierOfSource, remaining, tuning.percent);
  admitFromPool(s, order, pool);
  const kept = capSegments(s, order, k.max_segments);

  // Render: pinned in input order, then (source, -priority, block_id) (REN-1, PIN-4).
  // With preferences, first back to the plain key, so each source's bucket is in (-priority, block_id) order.
  const plainRank = !k.prefer_high_confidence && !k.prefer_recency;
  const inRenderOrder = (blocks: number[]): number[] => {
    const ordered = renderOrderFromRanked(r, plainRank ? blocks : stableSort(blocks, rankComparator(r, NO_PREFERENCES)));
    return pinned.length > 0 ? pinned.concat(ordered) : ordered;
  };
  const rendered = inRenderOrder(kept);
  const marked = caps.has('omission_markers') ? markedFor(s, order) : undefined;
  const result: Result = {
    context: marked ? renderContext(r, inRenderOrder(marked), s.state) : renderContext(r, rendered),
    included: idsOf(r, rendered),
    estimated_tokens: costOf(s, rendered),
    total_budget: r.budget,
    omissions: s.omissions,
  };
  if (caps.has('working_context')) {
    const truncated = s.omissions.some((o) => o.reason === REASON_TIER_BUDGET || o.reason === REASON_BUDGET || o.reason === REASON_MAX_SEGMENTS);
    result.segments = segmentsOf(s, rendered, tierOfSource);
    result.truncated = truncated;
    result.warnings = warningsFor(r, rendered, result.included, truncated, k.must_include);
    result.generated_at = r.now;
  }
  return result;
}

/** EXP-2: expired blocks (EXP-1, evaluated as validation read them) are omitted first, in input order, and cost nothing. */
function omitExpired(s: Selection): void {
  const { expired } = s.r;
  for (let i = 0; i < expired.length; i++) if (expired[i]) s.omit(i, REASON_EXPIRED);
}

/** CON-1: then the live blocks whose ids are in `exclude`, in input order. */
function omitExcluded(s: Selection, exclude: readonly string[]): void {
  const excluded = new Set(exclude);
  const { ids } = s.r;
  for (let i = 0; i < ids.length; i++) if (s.state[i] === LIVE && excluded.has(ids[i]!)) s.omit(i, REASON_EXCLUDED);
}

/** LIF-1 .. LIF-3: then superseded and disputed blocks, unless included, in input order. */
function omitByStatus(s: Selection, k: Required<Constraints>): void {
  const { status } = s.r;
  for (let i = 0; i < status.length; i++) {
    if (s.state[i] !== LIVE) continue;
    if (status[i] === SUPERSEDED && !k.include_superseded) s.omit(i, REASON_SUPERSEDED);
    else if (status[i] === DISPUTED && !k.include_disputed) s.omit(i, REASON_DISPUTED);
  }
}

/** PIN-1: the live pinned blocks, in input order, are admitted first. */
function pinFirst(s: Selection): number[] {
  const { pinned } = s.r;
  const first: number[] = [];
  for (let i = 0; i < pinned.length; i++) {
    if (s.state[i] !== LIVE) continue;
    if (pinned[i]) {
      s.state[i] = PINNED;
      first.push(i);
    }
  }
  return first;
}

function costOf(s: Selection, blocks: readonly number[]): number {
  let sum = 0;
  for (const i of blocks) sum += s.cost(i);
  return sum;
}

/** CON-2, CON-3: the live required blocks, by the ranking key, each while it fits; returns what is left. */
function admitRequired(s: Selection, order: ArrayLike<number>, mustInclude: readonly string[], remaining: number): number {
  const required = new Set(mustInclude);
  const { ids } = s.r;
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    if (!required.has(ids[i]!)) continue;
    const cost = s.cost(i);
    if (cost <= remaining) {
      remaining -= cost;
      s.state[i] = REQUIRED;
    } else s.omit(i, REASON_BUDGET, OMITTED_FOR_BUDGET);
  }
  return remaining;
}

/**
 * TIER-2 .. TIER-6: each tier admits, by the ranking key, every block that
 * fits what the tier has left; a block that fits no tier stays live, set aside
 * for the pool. Returns the pool: what the tiers left, without the rounding.
 */
function admitByTier(s: Selection, order: ArrayLike<number>, tierOfSource: readonly number[], budget: number, percent: Tuning['percent']): number {
  const left = [0, 0, 0, 0];
  for (let t = 0; t < TIERS.length; t++) left[t] = tierBudget(budget, TIERS[t]!, percent);
  const { source } = s.r;
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    if (s.state[i] !== LIVE) continue;
    const t = tierOfSource[source[i]!]!;
    const cost = s.cost(i);
    if (cost <= left[t]!) {
      left[t]! -= cost;
      s.state[i] = TIER;
    }
  }
  return left[0]! + left[1]! + left[2]! + left[3]!;
}

/** TIER-7: the set-aside blocks, by the ranking key, each while it fits the pool; the rest are omitted. */
function admitFromPool(s: Selection, order: ArrayLike<number>, pool: number): void {
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    if (s.state[i] !== LIVE) continue;
    const cost = s.cost(i);
    if (cost <= pool) {
      pool -= cost;
      s.state[i] = OVERFLOW;
    } else s.omit(i, REASON_TIER_BUDGET, OMITTED_FOR_BUDGET);
  }
}

/** The admitted non-pinned blocks by the ranking key; CON-5: the first `max` of them (null: all), the rest omitted. */
function capSegments(s: Selection, order: ArrayLike<number>, max: number | null): number[] {
  const kept: number[] = [];
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    const state = s.state[i];
    if (state !== REQUIRED && state !== TIER && state !== OVERFLOW) continue;
    if (max === null || kept.length < max) kept.push(i);
    else s.omit(i, REASON_MAX_SEGMENTS, OMITTED_FOR_SEGMENTS);
  }
  return kept;
}

/**
 * MRK-1, MRK-3: the blocks shown in the context with markers, by the ranking
 * key. Every block of the ranking order (the live non-pinned ones, after the
 * filters) ends admitted or omitted for room, so with markers all of them are
 * shown, each omitted one as its marker where it would have stood. Undefined
 * when nothing was omitted for room: the context is the plain one (MRK-4).
 */
function markedFor(s: Selection, order: ArrayLike<number>): number[] | undefined {
  for (let j = 0; j < order.length; j++) {
    const state = s.state[order[j]!];
    if (state === OMITTED_FOR_BUDGET || state === OMITTED_FOR_SEGMENTS) return Array.from(order);
  }
  return undefined;
}

function idsOf(r: NormalRequest, blocks: readonly number[]): string[] {
  const out = new Array<string>(blocks.length);
  for (let j = 0; j < blocks.length; j++) out[j] = r.ids[blocks[j]!]!;
  return out;
}

/**
 * REN-2, REN-3: each block as "[" + source + " · " + block_id + "]\n" + content,
 * joined by "\n\n". The pieces go into one array joined once, which builds no
 * string per block; what comes before the id is the same for every block of a
 * source, so it is one piece, built once per source. With `state`, a block
 * omitted for room shows its marker line instead of its content (MRK-2).
 */
function renderContext(r: NormalRequest, rendered: readonly number[], state?: Bytes): string {
  const opening = r.sources.map((source) => SEGMENT_JOINER + '[' + source + HEADER_SEPARATOR);
  const pieces = new Array<string>(rendered.length * 4);
  let p = 0;
  for (let j = 0; j < rendered.length; j++) {
    const i = rendered[j]!;
    const open = opening[r.source[i]!]!;
    pieces[p++] = j === 0 ? open.slice(SEGMENT_JOINER.length) : open;
    pieces[p++] = r.ids[i]!;
    pieces[p++] = ']\n';
    const st = state?.[i];
    pieces[p++] = st === OMITTED_FOR_BUDGET ? MARKER_OVER_BUDGET : st === OMITTED_FOR_SEGMENTS ? MARKER_OVER_SEGMENTS : r.contents[i]!;
  }
  return pieces.join('');
}

/** WC-2: one segment per rendered block, with its tier, cost, priority as score, and admission reason. */
function segmentsOf(s: Selection, rendered: readonly number[], tierOfSource: readonly number[]): Segment[] {
  const { ids, source, sources, priority } = s.r;
  const out = new Array<Segment>(rendered.length);
  for (let j = 0; j < rendered.length; j++) {
    const i = rendered[j]!;
    const src = source[i]!;
    out[j] = {
      block_id: ids[i]!,
      source: sources[src]!,
      tier: TIERS[tierOfSource[src]!]!,
      tokens: s.cost(i),
      score: priority[i]!,
      reason: SEGMENT_REASON[s.state[i]!]!,
    };
  }
  return out;
}

/** SPEC WC-4: empty_context, truncated, required_ref_omitted (must_include order), then lifecycle in rendered order. */
function warningsFor(r: NormalRequest, rendered: number[], included: string[], truncated: boolean, mustInclude: readonly string[]): Warning[] {
  const warnings: Warning[] = [];
  if (rendered.length === 0) warnings.push({ code: 'empty_context', message: 'no block was included' });
  if (truncated) warnings.push({ code: 'truncated', message: 'some blocks were left out for budget or segment count' });
  if (mustInclude.length > 0) {
    const done = new Set(included);
    for (const id of mustInclude) {
      if (done.has(id)) continue;
      done.add(id); // one warning per id, however often it is listed
      warnings.push({ code: 'required_ref_omitted', block_id: id, message: 'a required block is not in the context' });
    }
  }
  for (const i of rendered) {
    const s = r.status[i];
    const id = r.ids[i]!;
    if (s === DISPUTED) warnings.push({ code: 'disputed_memory_included', block_id: id, message: 'included block is disputed' });
    else if (s === SUPERSEDED) warnings.push({ code: 'superseded_memory_included', block_id: id, message: 'included block is superseded' });
    else if (s === STALE) warnings.push({ code: 'stale_consolidation', block_id: id, message: 'included block is stale' });
  }
  return warnings;
}
