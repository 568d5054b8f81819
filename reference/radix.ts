/**
 * A stable least-significant-digit radix sort of indices by 64-bit unsigned
 * keys, each given as two 32-bit words. It is the engine under the two fast
 * paths of large requests (the id order of id-order.ts, the priority order of
 * rank-sort.ts): for a million keys it is several times faster than the
 * engine's own typed-array sort, and being stable it sorts by a second key
 * when given indices already in that key's order.
 *
 * Digits of 11 bits (10 for the top of each word), least significant first;
 * a digit that every key shares is skipped, so keys that differ in few bits
 * (small integers, many ties) take one or two passes, and a word that every
 * key shares is not moved. Each pass is a counting sort, and so stable.
 *
 * Its working memory is kept from one sort to the next: a request of a million
 * blocks would otherwise allocate some 50 MB of typed arrays per assembly,
 * enough to make the engine collect its whole heap (external memory
 * pressure), which costs more than the sorts. No caller's code runs during a
 * sort, so one set of buffers serves every sort; it is as large as the
 * largest request seen.
 */

/** The digits, least significant first: [word (0 low, 1 high), shift, mask]. */
const DIGITS: readonly (readonly [number, number, number])[] = [
  [0, 0, 0x7ff],
  [0, 11, 0x7ff],
  [0, 22, 0x3ff],
  [1, 0, 0x7ff],
  [1, 11, 0x7ff],
  [1, 22, 0x3ff],
];

/** The reused buffers: the keys to sort, then where each pass writes. */
const buffers: Uint32Array[] = [];

function buffer(slot: number, m: number): Uint32Array {
  let b = buffers[slot];
  if (b === undefined || b.length < m) {
    b = new Uint32Array(m);
    buffers[slot] = b;
  }
  return b.subarray(0, m);
}

/** Indices with the two words of each one's key, at the same positions. */
export interface Keyed {
  indices: Uint32Array;
  low: Uint32Array;
  high: Uint32Array;
}

/**
 * Arrays for `m` keys, to fill in and sort with stableSortByKey: views of the
 * reused buffers, good until the next call of either function.
 */
export function keysToSort(m: number): Keyed {
  return { indices: buffer(0, m), low: buffer(1, m), high: buffer(2, m) };
}

/**
 * The indices stably sorted by their keys, ascending, with the keys moved
 * along. The arrays given may be written to, and the ones returned may be
 * reused buffers: copy what must outlive the next sort.
 */
export function stableSortByKey({ indices, low, high }: Keyed): Keyed {
  const m = indices.length;
  // The bits in which some keys differ: only digits holding one need a pass.
  let andLo = 0xffffffff;
  let andHi = 0xffffffff;
  let orLo = 0;
  let orHi = 0;
  for (let j = 0; j < m; j++) {
    andLo &= low[j]!;
    orLo |= low[j]!;
    andHi &= high[j]!;
    orHi |= high[j]!;
  }
  const varying = [(orLo ^ andLo) >>> 0, (orHi ^ andHi) >>> 0];

  let idx = indices;
  let words = [low, high];
  let nextIdx: Uint32Array | null = null;
  let nextWords: Uint32Array[] | null = null;
  const count = new Uint32Array(0x800);
  for (const [w, shift, mask] of DIGITS) {
    if (((varying[w]! >>> shift) & mask) === 0) continue;
    nextIdx ??= buffer(3, m);
    nextWords ??= [buffer(4, m), buffer(5, m)];
    const key = words[w]!;
    count.fill(0);
    for (let j = 0; j < m; j++) count[(key[j]! >>> shift) & mask]!++;
    let sum = 0;
    for (let d = 0; d <= mask; d++) {
      const c = count[d]!;
      count[d] = sum;
      sum += c;
    }
    const toKey = nextWords[w]!;
    const other = words[1 - w]!;
    if (varying[1 - w] === 0) {
      // The other word is the same in every key, so it reads the same in any order: it stays where it is.
      for (let j = 0; j < m; j++) {
        const k = key[j]!;
        const to = count[(k >>> shift) & mask]!++;
        nextIdx[to] = idx[j]!;
        toKey[to] = k;
      }
      nextWords[1 - w] = other;
    } else {
      const toOther = nextWords[1 - w]!;
      for (let j = 0; j < m; j++) {
        const k = key[j]!;
        const to = count[(k >>> shift) & mask]!++;
        nextIdx[to] = idx[j]!;
        toKey[to] = k;
        toOther[to] = other[j]!;
      }
    }
    [idx, nextIdx] = [nextIdx, idx];
    [words, nextWords] = [nextWords, words];
  }
  return { indices: idx, low: words[0]!, high: words[1]! };
}
