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
import { isExpired, tierBudget, tierOf, tokensFor } from './estimate.js';
import { bytes, counts } from './flat.js';
import { NO_PREFERENCES, rankComparator, rankOrder, renderOrderFromRanked } from './order.js';
import type { Capability, ErrorAnswer, Omission, Result, Segment, SegmentReason, Warning } from './types.js';
import { DISPUTED, STALE, SUPERSEDED } from './validate.js';
import type { NormalRequest } from './validate.js';

/** Where a block stands: live until omitted or admitted. */
const LIVE = 0;
const PINNED = 1;
const REQUIRED = 2;
const TIER = 3;
const OVERFLOW = 4;
const OMITTED = 5;
const SEGMENT_REASON: readonly (SegmentReason | null)[] = [null, 'pinned', 'required', 'tier', 'overflow', null];

/**
 * SPEC section 5 (profile `tiered`) with every capability of section 8. Blocks
 * are named by their index in the request, and what selection needs of each
 * is in the request's columns. The live blocks are sorted once by the ranking
 * key, and every later step walks that order.
 */
export function assembleTiered(r: NormalRequest, caps: ReadonlySet<Capability>): Result | ErrorAnswer {
  const { ids, status } = r;
  const n = ids.length;
  const k = r.constraints;
  const state = bytes(n); // every block LIVE
  const omissions: Omission[] = [];
  const omit = (i: number, reason: string): void => {
    state[i] = OMITTED;
    omissions.push({ block_id: ids[i]!, reason });
  };

  // Expired blocks are omitted first, in input order (EXP-2).
  for (let i = 0; i < n; i++) if (isExpired(r.now, r.createdAt[i]!, r.ttl[i]!)) omit(i, REASON_EXPIRED);
  // Then the filters of section 8, each a pass in input order (CON-1, LIF-1 .. LIF-3).
  if (k.exclude.length > 0) {
    const excluded = new Set(k.exclude);
    for (let i = 0; i < n; i++) if (state[i] === LIVE && excluded.has(ids[i]!)) omit(i, REASON_EXCLUDED);
  }
  for (let i = 0; i < n; i++) {
    if (state[i] !== LIVE) continue;
    if (status[i] === SUPERSEDED && !k.include_superseded) omit(i, REASON_SUPERSEDED);
    else if (status[i] === DISPUTED && !k.include_disputed) omit(i, REASON_DISPUTED);
  }

  // Each live block's cost (NUM-2). Pinned blocks first (PIN-1), whole or not at all (PIN-2).
  const cost = counts(n);
  const pinned: number[] = [];
  let pinnedCost = 0;
  for (let i = 0; i < n; i++) {
    if (state[i] !== LIVE) continue;
    cost[i] = tokensFor(r.codePoints[i]!);
    if (r.pinned[i]) {
      state[i] = PINNED;
      pinnedCost += cost[i]!;
      pinned.push(i);
    }
  }
  if (pinnedCost > r.budget) {
    return {
      error: {
        code: 'pinned_overflow',
        message: `pinned blocks cost ${pinnedCost} tokens, more than the budget of ${r.budget}`,
      },
    };
  }
  let remaining = r.budget - pinnedCost; // PIN-3

  // The other live blocks, by the ranking key (TIER-3, CON-6).
  const order = rankOrder(r, (i) => state[i] === LIVE, k);

  // Required blocks, by the ranking key, each while it fits (CON-2, CON-3).
  if (k.must_include.length > 0) {
    const required = new Set(k.must_include);
    for (let j = 0; j < order.length; j++) {
      const i = order[j]!;
      if (!required.has(ids[i]!)) continue;
      if (cost[i]! <= remaining) {
        remaining -= cost[i]!;
        state[i] = REQUIRED;
      } else omit(i, REASON_BUDGET);
    }
  }

  // Tiers, then the overflow pool of what they left (TIER-2 .. TIER-7): a block
  // that fits no tier stays live, set aside for the pool.
  const tierOfSource = r.sources.map((s) => TIERS.indexOf(tierOf(s)));
  const left = TIERS.map((t) => tierBudget(remaining, t));
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    if (state[i] !== LIVE) continue;
    const t = tierOfSource[r.source[i]!]!;
    if (cost[i]! <= left[t]!) {
      left[t]! -= cost[i]!;
      state[i] = TIER;
    }
  }
  let pool = left[0]! + left[1]! + left[2]! + left[3]!;
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    if (state[i] !== LIVE) continue;
    if (cost[i]! <= pool) {
      pool -= cost[i]!;
      state[i] = OVERFLOW;
    } else omit(i, REASON_TIER_BUDGET);
  }

  // The admitted non-pinned blocks, in ranking-key order.
  let kept: number[] = [];
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    const s = state[i];
    if (s === REQUIRED || s === TIER || s === OVERFLOW) kept.push(i);
  }

  // max_segments keeps the first non-pinned blocks by the ranking key (CON-5).
  if (k.max_segments !== null && kept.length > k.max_segments) {
    for (let j = k.max_segments; j < kept.length; j++) omit(kept[j]!, REASON_MAX_SEGMENTS);
    kept = kept.slice(0, k.max_segments);
  }

  // Render: pinned in input order, then (source, -priority, block_id) (REN-1, PIN-4).
  // With preferences, first back to the plain key, so each source's bucket is in (-priority, block_id) order.
  const plainRank = !k.prefer_high_confidence && !k.prefer_recency;
  const ordered = renderOrderFromRanked(r, plainRank ? kept : kept.sort(rankComparator(r, NO_PREFERENCES)));
  const rendered = pinned.length > 0 ? pinned.concat(ordered) : ordered;

  const included = rendered.map((i) => ids[i]!);
  let tokens = 0;
  for (const i of rendered) tokens += cost[i]!;
  const result: Result = {
    context: renderContext(r, rendered),
    included,
    estimated_tokens: tokens,
    total_budget: r.budget,
    omissions,
  };
  if (caps.has('working_context')) {
    const truncated = omissions.some(
      (o) => o.reason === REASON_TIER_BUDGET || o.reason === REASON_BUDGET || o.reason === REASON_MAX_SEGMENTS,
    );
    result.segments = rendered.map((i): Segment => {
      const source = r.sources[r.source[i]!]!;
      return { block_id: ids[i]!, source, tier: tierOf(source), tokens: cost[i]!, score: r.priority[i]!, reason: SEGMENT_REASON[state[i]!]! };
    });
    result.truncated = truncated;
    result.warnings = warningsFor(r, rendered, included, truncated, k.must_include);
    result.generated_at = r.now;
  }
  return result;
}

/**
 * REN-2, REN-3: each block as "[" + source + " · " + block_id + "]\n" + content,
 * joined by "\n\n". The pieces go into one array joined once, which builds no
 * string per block.
 */
function renderContext(r: NormalRequest, rendered: readonly number[]): string {
  const pieces = new Array<string>(rendered.length * 6);
  let p = 0;
  for (let j = 0; j < rendered.length; j++) {
    const i = rendered[j]!;
    pieces[p++] = j === 0 ? '[' : SEGMENT_JOINER + '[';
    pieces[p++] = r.sources[r.source[i]!]!;
    pieces[p++] = HEADER_SEPARATOR;
    pieces[p++] = r.ids[i]!;
    pieces[p++] = ']\n';
    pieces[p++] = r.blocks[i]!.content;
  }
  return pieces.join('');
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
