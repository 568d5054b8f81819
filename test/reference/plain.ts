/**
 * The plain, obviously correct versions of the reference's fast paths, which
 * the properties of fast-paths.test.ts hold them to. Each is the spec's own
 * sentence in the shortest code: no keys, no radix, no shortcuts.
 */

/** NUM-4, independently of reference/unicode.ts: string iteration yields code points, and a lone surrogate as itself. */
export function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return Math.sign(x.length - y.length);
}

/** VAL-4: no two ids are equal. */
export const allUnique = (ids: readonly string[]): boolean => new Set(ids).size === ids.length;

/** NUM-4: the indices of `ids` in code-point order of the ids (a stable sort: equal ids keep their order). */
export const idOrder = (ids: readonly string[]): number[] => ids.map((_, i) => i).sort((x, y) => byCodePoints(ids[x]!, ids[y]!));

/** NUM-5: -0 equals 0, and the higher priority comes first. */
const byPriority = (a: number, b: number): number => (a === b ? 0 : a > b ? -1 : 1);

/** RANK-1: `indices` by -priority, ties in their given order (Array.prototype.sort is stable). */
export const byPriorityStable = (indices: readonly number[], priority: ArrayLike<number>): number[] =>
  indices.slice().sort((x, y) => byPriority(priority[x]!, priority[y]!));

/** TIER-3: `indices` by (-priority, block_id by code points). */
export const rankOrder = (indices: readonly number[], priority: ArrayLike<number>, ids: readonly string[]): number[] =>
  indices.slice().sort((x, y) => byPriority(priority[x]!, priority[y]!) || byCodePoints(ids[x]!, ids[y]!));

/** REN-1: `indices` by (source, -priority, block_id), strings by code points. */
export const renderOrder = (indices: readonly number[], sources: readonly string[], priority: ArrayLike<number>, ids: readonly string[]): number[] =>
  indices.slice().sort((x, y) => byCodePoints(sources[x]!, sources[y]!) || byPriority(priority[x]!, priority[y]!) || byCodePoints(ids[x]!, ids[y]!));

/** Indices in ascending order of 64-bit keys given as two 32-bit words, ties in their given order. */
export const byKeyStable = (indices: readonly number[], low: readonly number[], high: readonly number[]): number[] =>
  indices
    .map((i, j) => ({ i, lo: low[j]!, hi: high[j]! }))
    .sort((a, b) => a.hi - b.hi || a.lo - b.lo)
    .map((e) => e.i);
