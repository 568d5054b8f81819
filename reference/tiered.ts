import {
  HEADER_SEPARATOR,
  REASON_BUDGET,
  REASON_DISPUTED,
  REASON_EXCLUDED,
  REASON_EXPIRED,
  REASON_MAX_SEGMENTS,
  REASON_SUPERSEDED,
  REASON_TIER_BUDGET,
  SEGMENT_JOINER,
  TIERS,
} from './constants.js';
import { estimateTokens, isExpired, tierBudget, tierOf } from './estimate.js';
import { hasOnlyLowUnits, NO_PREFERENCES, rankComparator, renderOrderFromRanked } from './order.js';
import { KEYED_SORT_MIN, plainRankOrder } from './rank-sort.js';
import type { Capability, ErrorAnswer, Omission, Result, Segment, Warning } from './types.js';
import type { NormalBlock, NormalRequest } from './validate.js';

/** Index of each tier in TIERS, so the per-tier budgets live in a small array. */
const TIER_INDEX = new Map(TIERS.map((t, i) => [t, i]));

/** A request has few distinct sources: look each one up once. */
function tierIndexCache(): (source: string) => number {
  const cache = new Map<string, number>();
  return (source) => {
    let t = cache.get(source);
    if (t === undefined) {
      t = TIER_INDEX.get(tierOf(source))!;
      cache.set(source, t);
    }
    return t;
  };
}

/** Where a non-pinned block stands during selection. */
const PENDING = 0;
const REQUIRED = 1;
const TIER = 2;
const OVERFLOW = 3;
const OMITTED = 4;

/** Indices of `blocks` sorted by a comparator: small requests and the preference keys. */
function comparatorOrder(blocks: readonly NormalBlock[], cmp: (a: NormalBlock, b: NormalBlock) => number): Uint32Array {
  for (const b of blocks) b.lowId = hasOnlyLowUnits(b.block_id);
  const idx = Array.from(blocks, (_, i) => i).sort((x, y) => cmp(blocks[x]!, blocks[y]!));
  return Uint32Array.from(idx);
}

/**
 * SPEC section 5 (profile `tiered`) with every capability of section 8. Each
 * block's cost is computed once; the blocks are sorted once by the ranking
 * key and every later step walks that order.
 */
export function assembleTiered(r: NormalRequest, caps: ReadonlySet<Capability>): Result | ErrorAnswer {
  const k = r.constraints;
  const omissions: Omission[] = [];
  const omit = (b: NormalBlock, reason: string): void => {
    omissions.push({ block_id: b.block_id, reason });
  };

  // Pre-filters, each a pass in input order (EXP-2, CON-1, LIF-1, LIF-2).
  let live: NormalBlock[] = [];
  let filtersStatus = false;
  for (const b of r.blocks) {
    if (isExpired(r.now, b.created_at, b.ttl_seconds)) omit(b, REASON_EXPIRED);
    else {
      live.push(b);
      if (b.status === 'superseded' || b.status === 'disputed') filtersStatus = true;
    }
  }
  if (k.exclude.length > 0) {
    const excluded = new Set(k.exclude);
    live = live.filter((b) => (excluded.has(b.block_id) ? (omit(b, REASON_EXCLUDED), false) : true));
  }
  if (filtersStatus) {
    live = live.filter((b) => {
      if (b.status === 'superseded' && !k.include_superseded) return omit(b, REASON_SUPERSEDED), false;
      if (b.status === 'disputed' && !k.include_disputed) return omit(b, REASON_DISPUTED), false;
      return true;
    });
  }

  // One pass in input order: pinned blocks apart (PIN-1), and for the rest their
  // cost and tier in flat arrays, which the later passes read in ranking order.
  const tierIndex = tierIndexCache();
  const pinned: NormalBlock[] = [];
  const rest: NormalBlock[] = [];
  const cost = new Float64Array(live.length);
  const tier = new Uint8Array(live.length);
  let pinnedCost = 0;
  for (const b of live) {
    b.cost = estimateTokens(b.content);
    if (b.pinned) {
      pinnedCost += b.cost;
      b.reason = 'pinned';
      pinned.push(b);
    } else {
      cost[rest.length] = b.cost;
      tier[rest.length] = tierIndex(b.source);
      rest.push(b);
    }
  }
  // Whole or not at all (PIN-2).
  if (pinnedCost > r.budget) {
    return {
      error: {
        code: 'pinned_overflow',
        message: `pinned blocks cost ${pinnedCost} tokens, more than the budget of ${r.budget}`,
      },
    };
  }
  let remaining = r.budget - pinnedCost;

  const plainRank = !k.prefer_high_confidence && !k.prefer_recency;
  const order = plainRank && rest.length >= KEYED_SORT_MIN ? plainRankOrder(rest) : comparatorOrder(rest, rankComparator(k));
  const state = new Uint8Array(rest.length); // PENDING until admitted or omitted

  // Required blocks, by the ranking key, each while it fits (CON-2, CON-3).
  if (k.must_include.length > 0) {
    const required = new Set(k.must_include);
    for (const i of order) {
      const b = rest[i]!;
      if (!required.has(b.block_id)) continue;
      if (cost[i]! <= remaining) {
        remaining -= cost[i]!;
        state[i] = REQUIRED;
      } else {
        state[i] = OMITTED;
        omit(b, REASON_BUDGET);
      }
    }
  }

  // Tiers, then the overflow pool of what they left (TIER-2 .. TIER-7).
  const left = TIERS.map((t) => tierBudget(remaining, t));
  const setAside: number[] = [];
  for (const i of order) {
    if (state[i] !== PENDING) continue;
    const t = tier[i]!;
    if (cost[i]! <= left[t]!) {
      left[t]! -= cost[i]!;
      state[i] = TIER;
    } else setAside.push(i);
  }
  let pool = left[0]! + left[1]! + left[2]! + left[3]!;
  for (const i of setAside) {
    if (cost[i]! <= pool) {
      pool -= cost[i]!;
      state[i] = OVERFLOW;
    } else omit(rest[i]!, REASON_TIER_BUDGET);
  }

  // The admitted non-pinned blocks, in ranking-key order.
  let kept: NormalBlock[] = [];
  for (const i of order) {
    const s = state[i]!;
    if (s === REQUIRED || s === TIER || s === OVERFLOW) {
      const b = rest[i]!;
      b.reason = s === REQUIRED ? 'required' : s === TIER ? 'tier' : 'overflow';
      kept.push(b);
    }
  }

  // max_segments keeps the first non-pinned blocks by the ranking key (CON-5).
  if (k.max_segments !== null && kept.length > k.max_segments) {
    for (let i = k.max_segments; i < kept.length; i++) omit(kept[i]!, REASON_MAX_SEGMENTS);
    kept = kept.slice(0, k.max_segments);
  }

  // Render: pinned in input order, then (source, -priority, block_id) (REN-1, PIN-4).
  // With preferences, first back to the plain key (comparatorOrder set each lowId), so each source's bucket is in (-priority, block_id) order.
  const ordered = renderOrderFromRanked(plainRank ? kept : kept.sort(rankComparator(NO_PREFERENCES)));
  const rendered = pinned.length > 0 ? pinned.concat(ordered) : ordered;

  const texts: string[] = new Array(rendered.length);
  const included: string[] = new Array(rendered.length);
  let tokens = 0;
  for (let i = 0; i < rendered.length; i++) {
    const b = rendered[i]!;
    texts[i] = '[' + b.source + HEADER_SEPARATOR + b.block_id + ']\n' + b.content;
    included[i] = b.block_id;
    tokens += b.cost;
  }
  const result: Result = {
    context: texts.join(SEGMENT_JOINER),
    included,
    estimated_tokens: tokens,
    total_budget: r.budget,
    omissions,
  };
  if (caps.has('working_context')) {
    const truncated = omissions.some(
      (o) => o.reason === REASON_TIER_BUDGET || o.reason === REASON_BUDGET || o.reason === REASON_MAX_SEGMENTS,
    );
    result.segments = rendered.map(
      (b): Segment => ({
        block_id: b.block_id,
        source: b.source,
        tier: tierOf(b.source),
        tokens: b.cost,
        score: b.priority,
        reason: b.reason!,
      }),
    );
    result.truncated = truncated;
    result.warnings = warningsFor(rendered, included, truncated, k.must_include);
    result.generated_at = r.now;
  }
  return result;
}

/** SPEC WC-4: empty_context, truncated, required_ref_omitted (must_include order), then lifecycle in rendered order. */
function warningsFor(rendered: NormalBlock[], included: string[], truncated: boolean, mustInclude: readonly string[]): Warning[] {
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
  for (const b of rendered) {
    const s = b.status;
    if (s === 'disputed') warnings.push({ code: 'disputed_memory_included', block_id: b.block_id, message: 'included block is disputed' });
    else if (s === 'superseded') warnings.push({ code: 'superseded_memory_included', block_id: b.block_id, message: 'included block is superseded' });
    else if (s === 'stale') warnings.push({ code: 'stale_consolidation', block_id: b.block_id, message: 'included block is stale' });
  }
  return warnings;
}
