/**
 * `--filter` and `--shard`: which cases a run takes. The filter is that of
 * `ctxconform list --filter` (judging/cases/filter.ts), so the two agree.
 */
import { caseSelector } from '../judging/cases/filter.js';
import type { Selectable } from '../judging/cases/filter.js';

/** The `--filter` selector: ids, tags, requirement ids, areas (a bare id matches what an id alone can). */
export function idMatcher(filter: string | undefined): (item: Selectable | string) => boolean {
  return caseSelector(filter);
}

/** `I/N` (1-based) as {index, total}; undefined when malformed. */
export function parseShard(s: string): { index: number; total: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || index < 1 || index > total) return undefined;
  return { index, total };
}

/** The items of shard I of N: every N-th in id order, so shards stay balanced across directories. */
export function inShard<T>(items: readonly T[], shard: { index: number; total: number } | undefined): T[] {
  if (!shard || shard.total === 1) return items.slice();
  return items.filter((_, i) => i % shard.total === shard.index - 1);
}
