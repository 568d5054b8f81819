/**
 * `--filter` and `--shard`: which case ids a run takes. Globs are those of
 * `ctxconform list --filter` (conformance/cases/filter.ts), so the two agree.
 */
import { globMatcher } from '../cases/filter.js';

export function idMatcher(filter: string | undefined): (id: string) => boolean {
  if (filter === undefined || filter.trim() === '') return () => true;
  return globMatcher(filter);
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
