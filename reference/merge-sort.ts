/**
 * A stable merge sort for the comparator paths of small requests. The
 * engine's Array.prototype.sort calls the comparator from its own code, and on
 * a request of 50 blocks that call costs several times the comparison itself;
 * here the comparator is called from JavaScript, where the compiler inlines
 * it. The tests check it against Array.prototype.sort, which is stable too.
 */

/** Below this length a run is sorted by insertion. */
const RUN = 8;

/** `xs` sorted by `cmp` (negative: the first argument comes first), equal items in their given order. Sorts in place and returns `xs`. */
export function stableSort<T>(xs: T[], cmp: (a: T, b: T) => number): T[] {
  const n = xs.length;
  for (let start = 0; start < n; start += RUN) {
    const end = Math.min(n, start + RUN);
    for (let i = start + 1; i < end; i++) {
      const x = xs[i]!;
      let j = i - 1;
      while (j >= start && cmp(xs[j]!, x) > 0) {
        xs[j + 1] = xs[j]!;
        j--;
      }
      xs[j + 1] = x;
    }
  }
  if (n <= RUN) return xs;
  let from = xs;
  let to = xs.slice(); // the same kind of array, so the merges read and write one kind
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      // Ties take from the left run first: that keeps the sort stable.
      while (i < mid && j < hi) {
        if (cmp(from[j]!, from[i]!) < 0) to[k++] = from[j++]!;
        else to[k++] = from[i++]!;
      }
      while (i < mid) to[k++] = from[i++]!;
      while (j < hi) to[k++] = from[j++]!;
    }
    const merged = to;
    to = from;
    from = merged;
  }
  if (from !== xs) for (let i = 0; i < n; i++) xs[i] = from[i]!;
  return xs;
}
