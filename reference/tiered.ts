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
import { hasOnlyLowUnits, rankComparator, renderComparator, renderOrderFromRanked } from './order.js';
import { KEYED_SORT_MIN, sortByPlainRank } from './rank-sort.js';
import type { Capability, ErrorAnswer, Omission, Result, Segment, Warning } from './types.js';
import type { NormalBlock, NormalRequest } from './validate.js';

/** Index of each tier in TIERS, so the per-tier budgets live in a small array. */
const TIER_INDEX = new Map(TIERS.map((t, i) => [t, i]));

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
  for (const b of r.blocks) {
    if (isExpired(r.now, b.created_at, b.ttl_seconds)) omit(b, REASON_EXPIRED);
    else live.push(b);
  }
  if (k.exclude.length > 0) {
    const excluded = new Set(k.exclude);
    live = live.filter((b) => (excluded.has(b.block_id) ? (omit(b, REASON_EXCLUDED), false) : true));
  }
  live = live.filter((b) => {
    if (b.status === 'superseded' && !k.include_superseded) return omit(b, REASON_SUPERSEDED), false;
    if (b.status === 'disputed' && !k.include_disputed) return omit(b, REASON_DISPUTED), false;
    return true;
  });

  // Pinned blocks first, whole or not at all (PIN-1, PIN-2).
  const pinned: NormalBlock[] = [];
  const rest: NormalBlock[] = [];
  let pinnedCost = 0;
  for (const b of live) {
    b.cost = estimateTokens(b.content);
    if (b.pinned) {
      pinnedCost += b.cost;
      b.reason = 'pinned';
      pinned.push(b);
    } else rest.push(b);
  }
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
  let ranked: NormalBlock[];
  if (plainRank && rest.length >= KEYED_SORT_MIN) ranked = sortByPlainRank(rest);
  else {
    for (const b of rest) b.lowId = hasOnlyLowUnits(b.block_id);
    ranked = rest.sort(rankComparator(k));
  }

  // Required blocks, by the ranking key, each while it fits (CON-2, CON-3).
  let candidates = ranked;
  if (k.must_include.length > 0) {
    const required = new Set(k.must_include);
    candidates = [];
    for (const b of ranked) {
      if (!required.has(b.block_id)) candidates.push(b);
      else if (b.cost <= remaining) {
        remaining -= b.cost;
        b.reason = 'required';
      } else omit(b, REASON_BUDGET);
    }
  }

  // Tiers, then the overflow pool of what they left (TIER-2 .. TIER-7).
  const left = TIERS.map((t) => tierBudget(remaining, t));
  const setAside: NormalBlock[] = [];
  for (const b of candidates) {
    const t = TIER_INDEX.get(tierOf(b.source))!;
    if (b.cost <= left[t]!) {
      left[t]! -= b.cost;
      b.reason = 'tier';
    } else setAside.push(b);
  }
  let pool = left[0]! + left[1]! + left[2]! + left[3]!;
  for (const b of setAside) {
    if (b.cost <= pool) {
      pool -= b.cost;
      b.reason = 'overflow';
    } else omit(b, REASON_TIER_BUDGET);
  }

  // The admitted non-pinned blocks, in ranking-key order.
  let kept = ranked.filter((b) => b.reason !== null);

  // max_segments keeps the first non-pinned blocks by the ranking key (CON-5).
  if (k.max_segments !== null && kept.length > k.max_segments) {
    for (let i = k.max_segments; i < kept.length; i++) omit(kept[i]!, REASON_MAX_SEGMENTS);
    kept = kept.slice(0, k.max_segments);
  }

  // Render: pinned in input order, then (source, -priority, block_id) (REN-1, PIN-4).
  const ordered = plainRank ? renderOrderFromRanked(kept) : kept.sort(renderComparator);
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
