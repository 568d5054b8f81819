/**
 * Fast path for TIER-3 and RANK-1 on many blocks: a stable sort by -priority.
 * Given the blocks in id order it gives the ranking key (-priority, block_id);
 * given them in input order, the packer's order. Each priority becomes a
 * 64-bit unsigned key of the same order, sorted by radix.ts.
 *
 * The tests check it against the plain version: Array.prototype.sort, which is stable.
 */
import { indexArray } from './block-arrays.js';
import { keysToSort, stableSortByKey } from './radix.js';

/** One double as two 32-bit words: a DataView is big-endian unless told otherwise, on every machine. */
const DOUBLE = new DataView(new ArrayBuffer(8));
const SIGN = 0x80000000;

/**
 * `indices` stably sorted by -priority[i], higher priorities first. As keys,
 * NUM-5 order: `p + 0` turns -0 into 0; the bits of a double order as
 * unsigned integers the way the doubles compare once a negative one has all
 * its bits flipped and any other its sign bit set, and the complement of that
 * puts higher priorities first. Keyed from the priority itself, not from
 * -priority, whole priorities of one sign (0 among them) share the low word
 * and the low bits of the high word, so the sort skips those digits: with
 * priorities 0 to 9 it makes 2 passes instead of 6.
 */
export function byPriorityStable(indices: ArrayLike<number>, priority: ArrayLike<number>): Uint32Array {
  const m = indices.length;
  const keys = keysToSort(m);
  const { low, high } = keys;
  const idx = keys.indices;
  for (let j = 0; j < m; j++) {
    const i = indices[j]!;
    idx[j] = i;
    DOUBLE.setFloat64(0, priority[i]! + 0);
    const hi = DOUBLE.getUint32(0);
    const lo = DOUBLE.getUint32(4);
    if (hi >= SIGN) {
      // Negative: flipped to order, flipped back to put the higher first.
      high[j] = hi;
      low[j] = lo;
    } else {
      high[j] = ~(hi | SIGN);
      low[j] = ~lo;
    }
  }
  const ranked = indexArray(m, 'ranked');
  ranked.set(stableSortByKey(keys).indices);
  return ranked;
}
