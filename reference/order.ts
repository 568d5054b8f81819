import type { NormalBlock } from './validate.js';
import { compareCodePoints } from './unicode.js';

/** The ranking key's optional middle members (SPEC CON-8). */
export interface RankPreferences {
  prefer_high_confidence: boolean;
  prefer_recency: boolean;
}

/** SPEC TIER-4 / CON-8: (-priority, [-confidence], [-created_at], block_id by code points). */
export function rankComparator(p: RankPreferences): (a: NormalBlock, b: NormalBlock) => number {
  if (!p.prefer_high_confidence && !p.prefer_recency) {
    return (a, b) => (a.priority !== b.priority ? (a.priority > b.priority ? -1 : 1) : compareCodePoints(a.block_id, b.block_id));
  }
  return (a, b) => {
    if (a.priority !== b.priority) return a.priority > b.priority ? -1 : 1;
    if (p.prefer_high_confidence && a.confidence !== b.confidence) return a.confidence > b.confidence ? -1 : 1;
    if (p.prefer_recency && a.created_at !== b.created_at) return a.created_at > b.created_at ? -1 : 1;
    return compareCodePoints(a.block_id, b.block_id);
  };
}

/** SPEC REN-1: (source, -priority, block_id), strings by code points. */
export function renderComparator(a: NormalBlock, b: NormalBlock): number {
  if (a.source !== b.source) return compareCodePoints(a.source, b.source);
  if (a.priority !== b.priority) return a.priority > b.priority ? -1 : 1;
  return compareCodePoints(a.block_id, b.block_id);
}

/**
 * Render order of blocks already sorted by the plain ranking key: a stable
 * bucket by source keeps (-priority, block_id) inside each source, so the
 * second full sort is not needed.
 */
export function renderOrderFromRanked(rankedBlocks: NormalBlock[]): NormalBlock[] {
  const buckets = new Map<string, NormalBlock[]>();
  for (const b of rankedBlocks) {
    const bucket = buckets.get(b.source);
    if (bucket) bucket.push(b);
    else buckets.set(b.source, [b]);
  }
  const sources = [...buckets.keys()].sort(compareCodePoints);
  const out: NormalBlock[] = [];
  for (const s of sources) for (const b of buckets.get(s)!) out.push(b);
  return out;
}
