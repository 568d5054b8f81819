/**
 * The orders of SPEC TIER-3, CON-6 and REN-1, over block indices of a
 * validated request. Small requests are sorted here with comparators; large
 * ones with the plain key take the fast path of rank-sort.ts, which the
 * comparator is the plain version of.
 */
import { byPriorityStable } from './rank-sort.js';
import { compareCodePoints } from './unicode.js';
import { confidenceOf } from './validate.js';
import type { NormalRequest } from './validate.js';

/** The ranking key's optional middle members (SPEC CON-6). */
export interface RankPreferences {
  prefer_high_confidence: boolean;
  prefer_recency: boolean;
}

export const NO_PREFERENCES: RankPreferences = { prefer_high_confidence: false, prefer_recency: false };

/** SPEC TIER-3 / CON-6: (-priority, [-confidence], [-created_at], block_id by code points). */
export function rankComparator(r: NormalRequest, p: RankPreferences): (x: number, y: number) => number {
  const { blocks, ids, priority, createdAt } = r;
  // Ids are unique within a request and a sort never compares a block with itself: never 0.
  if (!p.prefer_high_confidence && !p.prefer_recency) {
    return (x, y) => (priority[x] !== priority[y] ? (priority[x]! > priority[y]! ? -1 : 1) : compareCodePoints(ids[x]!, ids[y]!));
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
    return compareCodePoints(ids[x]!, ids[y]!);
  };
}

/**
 * The blocks that pass `take`, in ranking-key order: by the comparator, or
 * for a large request with the plain key by the fast path below.
 */
export function rankOrder(r: NormalRequest, take: (i: number) => boolean, p: RankPreferences): ArrayLike<number> {
  if (r.idOrder !== null && !p.prefer_high_confidence && !p.prefer_recency) return plainRankFromIdOrder(r.idOrder, take, r.priority);
  const taken: number[] = [];
  for (let i = 0; i < r.ids.length; i++) if (take(i)) taken.push(i);
  return taken.sort(rankComparator(r, p));
}

/**
 * Fast path for TIER-3 (-priority, block_id): the blocks that pass `take`,
 * picked from `idOrder` (every block in code-point order of its id), then
 * stably sorted by priority, which keeps id order within a priority. The tests
 * check it against sorting with the plain ranking comparator.
 */
export function plainRankFromIdOrder(idOrder: Uint32Array, take: (i: number) => boolean, priority: ArrayLike<number>): Uint32Array {
  const byId = new Uint32Array(idOrder.length);
  let m = 0;
  for (const i of idOrder) if (take(i)) byId[m++] = i;
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
  const bySource = sources.map((_, s) => s).sort((a, b) => compareCodePoints(sources[a]!, sources[b]!));
  for (let j = 0; j < bySource.length; j++) rank[bySource[j]!] = j;
  const start = new Array<number>(sources.length + 1).fill(0);
  for (const i of ranked) start[rank[source[i]!]! + 1]!++;
  for (let s = 1; s <= sources.length; s++) start[s]! += start[s - 1]!;
  const out = new Array<number>(ranked.length);
  for (const i of ranked) out[start[rank[source[i]!]!]!++] = i;
  return out;
}
