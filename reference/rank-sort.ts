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
 * NUM-5 order: `0 - p` turns -0 into 0; then a negative double has all its
 * bits flipped and any other only its sign bit, which orders the bits as
 * unsigned integers the way the doubles compare.
 */
export function byPriorityStable(indices: ArrayLike<number>, priority: ArrayLike<number>): Uint32Array {
  const m = indices.length;
  const keys = keysToSort(m);
  const { low, high } = keys;
  const idx = keys.indices;
  for (let j = 0; j < m; j++) {
    const i = indices[j]!;
    idx[j] = i;
    DOUBLE.setFloat64(0, 0 - priority[i]!);
    const hi = DOUBLE.getUint32(0);
    const lo = DOUBLE.getUint32(4);
    if (hi >= SIGN) {
      high[j] = ~hi;
      low[j] = ~lo;
    } else {
      high[j] = hi | SIGN;
      low[j] = lo;
    }
  }
  const ranked = indexArray(m, 'ranked');
  ranked.set(stableSortByKey(keys).indices);
  return ranked;
}
