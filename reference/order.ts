import type { NormalBlock } from './validate.js';
import { compareCodePoints } from './unicode.js';

/** The ranking key's optional middle members (SPEC CON-6). */
export interface RankPreferences {
  prefer_high_confidence: boolean;
  prefer_recency: boolean;
}

export const NO_PREFERENCES: RankPreferences = { prefer_high_confidence: false, prefer_recency: false };

/** A unit at or above U+D800: only then can UTF-16 order differ from code-point order. */
const HIGH_UNIT = /[\uD800-\uFFFF]/;

/** True when the engine's own `<` orders this string by code points against any other. */
export const hasOnlyLowUnits = (s: string): boolean => !HIGH_UNIT.test(s);

/**
 * Block ids by code points. At the first differing unit, a string whose units
 * are all below U+D800 has a unit below U+D800; the other side's unit is then
 * either below U+D800 too (one code point each, same order) or at/above it
 * (a larger code point in both orders). So `<` is exact unless both ids have
 * high units, which is rare: ids are usually ASCII.
 */
function compareIds(a: NormalBlock, b: NormalBlock): number {
  // Ids are unique within a request and a sort never compares a block with itself: never 0.
  if (a.lowId || b.lowId) return a.block_id < b.block_id ? -1 : 1;
  return compareCodePoints(a.block_id, b.block_id);
}

/** SPEC TIER-3 / CON-6: (-priority, [-confidence], [-created_at], block_id by code points). */
export function rankComparator(p: RankPreferences): (a: NormalBlock, b: NormalBlock) => number {
  if (!p.prefer_high_confidence && !p.prefer_recency) {
    return (a, b) => (a.priority !== b.priority ? (a.priority > b.priority ? -1 : 1) : compareIds(a, b));
  }
  const conf = p.prefer_high_confidence;
  const recency = p.prefer_recency;
  return (a, b) => {
    if (a.priority !== b.priority) return a.priority > b.priority ? -1 : 1;
    if (conf && a.confidence !== b.confidence) return a.confidence > b.confidence ? -1 : 1;
    if (recency && a.created_at !== b.created_at) return a.created_at > b.created_at ? -1 : 1;
    return compareIds(a, b);
  };
}

/**
 * SPEC REN-1, (source, -priority, block_id), for blocks already in plain
 * ranking-key order: a stable bucket by source keeps (-priority, block_id)
 * inside each source, so only the few distinct sources need sorting.
 */
export function renderOrderFromRanked(rankedBlocks: readonly NormalBlock[]): NormalBlock[] {
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
