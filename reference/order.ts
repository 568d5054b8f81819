/**
 * The orders of SPEC TIER-3, CON-6 and REN-1, over block indices of a
 * validated request. Small requests are sorted here with comparators; large
 * ones with the plain key take the fast path of rank-sort.ts, which the
 * comparator is the plain version of.
 */
import { indexArray } from './block-arrays.js';
import { stableSort } from './merge-sort.js';
import { byPriorityStable } from './rank-sort.js';
import { codePointComparator } from './unicode.js';
import { confidenceOf } from './validate.js';
import type { NormalRequest } from './validate.js';

import type { RankPreferences } from './design.js';

export type { RankPreferences };

export const NO_PREFERENCES: RankPreferences = { prefer_high_confidence: false, prefer_recency: false };

/** SPEC TIER-3 / CON-6, the design's compareRank (design.ts) over block indices: (-priority, [-confidence], [-created_at], block_id by code points). */
export function rankComparator(r: NormalRequest, p: RankPreferences): (x: number, y: number) => number {
  const { blocks, priority, createdAt } = r;
  const byId = codePointComparator(r.ids);
  if (!p.prefer_high_confidence && !p.prefer_recency) {
    return (x, y) => (priority[x] !== priority[y] ? (priority[x]! > priority[y]! ? -1 : 1) : byId(x, y));
  }
  const conf = p.prefer_high_confidence;
  const recency = p.prefer_recency;
  return (x, y) => {
    if (priority[x] !== priority[y]) return priority[x]! > priority[y]! ? -1 : 1;
    if (conf) {
      const a = confidenceOf(blocks[x]!);
      const b = confidenceOf(blocks[y]!);
      if (a !== b) return a > b ? -1 : 1;
    }
    if (recency && createdAt[x] !== createdAt[y]) return createdAt[x]! > createdAt[y]! ? -1 : 1;
    return byId(x, y);
  };
}

/**
 * The blocks whose `state` is `wanted`, in ranking-key order: by the
 * comparator, or for a large request with the plain key by the fast path below.
 */
export function rankOrder(r: NormalRequest, state: ArrayLike<number>, wanted: number, p: RankPreferences): ArrayLike<number> {
  if (r.idOrder !== null && !p.prefer_high_confidence && !p.prefer_recency) return plainRankFromIdOrder(r.idOrder, state, wanted, r.priority);
  const taken: number[] = [];
  for (let i = 0; i < state.length; i++) if (state[i] === wanted) taken.push(i);
  return stableSort(taken, rankComparator(r, p));
}

/**
 * Fast path for TIER-3 (-priority, block_id): the blocks whose `state` is
 * `wanted`, picked from `idOrder` (every block in code-point order of its id),
 * then stably sorted by priority, which keeps id order within a priority. The
 * tests check it against sorting with the plain ranking comparator.
 */
export function plainRankFromIdOrder(idOrder: Uint32Array, state: ArrayLike<number>, wanted: number, priority: ArrayLike<number>): Uint32Array {
  const byId = indexArray(idOrder.length, 'byId');
  let m = 0;
  for (let j = 0; j < idOrder.length; j++) {
    const i = idOrder[j]!;
    if (state[i] === wanted) byId[m++] = i;
  }
  return byPriorityStable(byId.subarray(0, m), priority);
}

/**
 * SPEC REN-1, (source, -priority, block_id), for blocks already in plain
 * ranking-key order: a stable counting sort by the rank of the source keeps
 * (-priority, block_id) within each source, so only the distinct sources are
 * sorted by comparison.
 */
export function renderOrderFromRanked(r: NormalRequest, ranked: readonly number[]): number[] {
  const { sources, source } = r;
  const rank = new Array<number>(sources.length);
  const bySource = stableSort(
    sources.map((_, s) => s),
    codePointComparator(sources),
  );
  for (let j = 0; j < bySource.length; j++) rank[bySource[j]!] = j;
  const start = new Array<number>(sources.length + 1).fill(0);
  for (const i of ranked) start[rank[source[i]!]! + 1]!++;
  for (let s = 1; s <= sources.length; s++) start[s]! += start[s - 1]!;
  const out = new Array<number>(ranked.length);
  for (const i of ranked) out[start[rank[source[i]!]!]!++] = i;
  return out;
}
