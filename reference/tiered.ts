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
import { rankComparator, renderComparator, renderOrderFromRanked } from './order.js';
import type { Capability, ErrorAnswer, Omission, Result, Segment, SegmentReason, Tier, Warning } from './types.js';
import type { NormalBlock, NormalRequest } from './validate.js';

interface Admitted {
  block: NormalBlock;
  cost: number;
  reason: SegmentReason;
}

/** SPEC section 5 (profile `tiered`) with every capability of section 7. */
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
  const pinned: Admitted[] = [];
  const rest: NormalBlock[] = [];
  let pinnedCost = 0;
  for (const b of live) {
    if (b.pinned) {
      const cost = estimateTokens(b.content);
      pinnedCost += cost;
      pinned.push({ block: b, cost, reason: 'pinned' });
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
  const ranked = rest.slice().sort(rankComparator(k));
  const admitted: Admitted[] = [];

  // Required blocks, by the ranking key, each while it fits (CON-3, CON-4).
  const required = new Set(k.must_include);
  let candidates = ranked;
  if (required.size > 0) {
    candidates = [];
    for (const b of ranked) {
      if (!required.has(b.block_id)) {
        candidates.push(b);
        continue;
      }
      const cost = estimateTokens(b.content);
      if (cost <= remaining) {
        remaining -= cost;
        admitted.push({ block: b, cost, reason: 'required' });
      } else omit(b, REASON_BUDGET);
    }
  }

  // Tiers, then the overflow pool of what they left (TIER-5 .. TIER-8).
  const left = new Map<Tier, number>(TIERS.map((t) => [t, tierBudget(remaining, t)]));
  const setAside: { block: NormalBlock; cost: number }[] = [];
  for (const b of candidates) {
    const cost = estimateTokens(b.content);
    const tier = tierOf(b.source);
    const l = left.get(tier)!;
    if (cost <= l) {
      left.set(tier, l - cost);
      admitted.push({ block: b, cost, reason: 'tier' });
    } else setAside.push({ block: b, cost });
  }
  let pool = 0;
  for (const l of left.values()) pool += l;
  for (const { block, cost } of setAside) {
    if (cost <= pool) {
      pool -= cost;
      admitted.push({ block, cost, reason: 'overflow' });
    } else omit(block, REASON_TIER_BUDGET);
  }

  // max_segments keeps the first non-pinned blocks by the ranking key (CON-6).
  let kept = admitted;
  if (k.max_segments !== null && admitted.length > k.max_segments) {
    const cmp = rankComparator(k);
    const byRank = admitted.slice().sort((a, b) => cmp(a.block, b.block));
    kept = byRank.slice(0, k.max_segments);
    for (const a of byRank.slice(k.max_segments)) omit(a.block, REASON_MAX_SEGMENTS);
  }

  // Render: pinned in input order, then (source, -priority, block_id) (REN-1, PIN-3).
  const keptIds = new Set(kept.map((a) => a.block.block_id));
  const byBlock = new Map(kept.map((a) => [a.block, a]));
  let ordered: Admitted[];
  if (plainRank) {
    ordered = renderOrderFromRanked(ranked.filter((b) => keptIds.has(b.block_id))).map((b) => byBlock.get(b)!);
  } else {
    ordered = kept.slice().sort((a, b) => renderComparator(a.block, b.block));
  }
  const rendered = pinned.concat(ordered);

  const texts: string[] = [];
  let tokens = 0;
  for (const a of rendered) {
    texts.push('[' + a.block.source + HEADER_SEPARATOR + a.block.block_id + ']\n' + a.block.content);
    tokens += a.cost;
  }
  const result: Result = {
    context: texts.join(SEGMENT_JOINER),
    included: rendered.map((a) => a.block.block_id),
    estimated_tokens: tokens,
    total_budget: r.budget,
    omissions,
  };
  if (caps.has('working_context')) {
    const truncated = omissions.some(
      (o) => o.reason === REASON_TIER_BUDGET || o.reason === REASON_BUDGET || o.reason === REASON_MAX_SEGMENTS,
    );
    result.segments = rendered.map(
      (a): Segment => ({
        block_id: a.block.block_id,
        source: a.block.source,
        tier: tierOf(a.block.source),
        tokens: a.cost,
        score: a.block.priority,
        reason: a.reason,
      }),
    );
    result.truncated = truncated;
    result.warnings = warningsFor(rendered, truncated, k.must_include);
    result.generated_at = r.now;
  }
  return result;
}

/** SPEC WC-4: empty_context, truncated, required_ref_omitted (must_include order), then lifecycle in rendered order. */
function warningsFor(rendered: Admitted[], truncated: boolean, mustInclude: readonly string[]): Warning[] {
  const warnings: Warning[] = [];
  if (rendered.length === 0) warnings.push({ code: 'empty_context', message: 'no block was included' });
  if (truncated) warnings.push({ code: 'truncated', message: 'some blocks were left out for budget or segment count' });
  const included = new Set(rendered.map((a) => a.block.block_id));
  const warned = new Set<string>();
  for (const id of mustInclude) {
    if (included.has(id) || warned.has(id)) continue;
    warned.add(id);
    warnings.push({ code: 'required_ref_omitted', block_id: id, message: 'a required block is not in the context' });
  }
  for (const a of rendered) {
    const s = a.block.status;
    if (s === 'disputed') warnings.push({ code: 'disputed_memory_included', block_id: a.block.block_id, message: 'included block is disputed' });
    else if (s === 'superseded') warnings.push({ code: 'superseded_memory_included', block_id: a.block.block_id, message: 'included block is superseded' });
    else if (s === 'stale') warnings.push({ code: 'stale_consolidation', block_id: a.block.block_id, message: 'included block is stale' });
  }
  return warnings;
}
