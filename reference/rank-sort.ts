/**
 * Sorting many blocks by the plain ranking key (-priority, block_id by code
 * points). With a million blocks, a comparator sort spends its time in random
 * object and string reads; here the engine sorts plain numbers, and the
 * ranking comparator itself runs only where two blocks share a priority and
 * the first units of their ids.
 *
 * The key of an id packs its first units after the prefix every id shares, as
 * digits of a number whose order never contradicts code-point order: the end
 * of the id is digit 0, a unit below U+D800 is 1 + its rank among the units
 * that occur there, and a unit at or above U+D800 is the top digit, with the
 * rest of the key 0 (the comparator orders those).
 */
import { hasOnlyLowUnits, NO_PREFERENCES, rankComparator } from './order.js';
import type { NormalBlock } from './validate.js';

/** Below this many blocks the comparator sort is fast enough, and simpler to follow. */
export const KEYED_SORT_MIN = 512;

/** At most this many units go into a key. */
const MAX_KEY_UNITS = 8;
const SURROGATES = 0xd800;

function sharedPrefixLength(blocks: readonly NormalBlock[]): number {
  const prefix = blocks[0]!.block_id;
  let n = prefix.length;
  for (let i = 1; i < blocks.length && n > 0; i++) {
    const id = blocks[i]!.block_id;
    if (id.length < n) n = id.length;
    let j = 0;
    while (j < n && id.charCodeAt(j) === prefix.charCodeAt(j)) j++;
    n = j;
  }
  return n;
}

/**
 * Each id's key, from the units at `from` onwards, below 2^bits: as many
 * units as digits of the alphabet fit in `bits`.
 */
function idKeys(blocks: readonly NormalBlock[], from: number, bits: number): Float64Array {
  // The alphabet: every unit below U+D800 that occurs in the keyed positions.
  const digit = new Uint16Array(SURROGATES);
  for (const b of blocks) {
    const id = b.block_id;
    const end = Math.min(id.length, from + MAX_KEY_UNITS);
    for (let j = from; j < end; j++) {
      const u = id.charCodeAt(j);
      if (u >= SURROGATES) break;
      digit[u] = 1;
    }
  }
  let size = 0;
  for (let u = 0; u < SURROGATES; u++) if (digit[u]) digit[u] = ++size;
  const top = size + 1;
  const base = size + 2;
  // Never forced up to 1: a digit that does not fit `bits` would break the bound; with 0 units every key ties and sortRun orders all.
  const units = Math.min(MAX_KEY_UNITS, Math.floor(bits / Math.log2(base)));

  const keys = new Float64Array(blocks.length);
  for (let i = 0; i < blocks.length; i++) {
    const id = blocks[i]!.block_id;
    let key = 0;
    let j = from;
    for (; j < from + units && j < id.length; j++) {
      const u = id.charCodeAt(j);
      if (u >= SURROGATES) {
        key = key * base + top;
        j++;
        break;
      }
      key = key * base + digit[u]!;
    }
    for (; j < from + units; j++) key *= base;
    keys[i] = key;
  }
  return keys;
}

const byPlainRank = rankComparator(NO_PREFERENCES);

/** Sort order[from..to), blocks whose priority and id key tie, with the comparator small requests use. */
function sortRun(blocks: readonly NormalBlock[], order: Uint32Array, from: number, to: number): void {
  for (let j = from; j < to; j++) {
    const b = blocks[order[j]!]!;
    b.lowId = hasOnlyLowUnits(b.block_id);
  }
  order.subarray(from, to).sort((x, y) => byPlainRank(blocks[x]!, blocks[y]!));
}

/** Sorted distinct values of `xs`, and each value's rank among them. */
function ranks(xs: Float64Array): { ranks: Uint32Array; count: number } {
  const sorted = xs.slice().sort();
  let count = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[count - 1]) sorted[count++] = sorted[i]!;
  const out = new Uint32Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return { ranks: out, count };
}

/** Indices of `blocks` in (-priority, block_id) order; ids must be unique. */
export function plainRankOrder(blocks: readonly NormalBlock[]): Uint32Array {
  const m = blocks.length;
  if (m === 0) return new Uint32Array(0);
  // Sorted by id key, ties by input position, as plain numbers: key * m + i stays below 2^52.
  const keys = idKeys(blocks, sharedPrefixLength(blocks), 52 - Math.ceil(Math.log2(m + 1)));
  const byKey = new Float64Array(m);
  for (let i = 0; i < m; i++) byKey[i] = keys[i]! * m + i;
  byKey.sort();

  const negPriority = new Float64Array(m);
  for (let i = 0; i < m; i++) negPriority[i] = 0 - blocks[i]!.priority; // 0 - x also turns -0 into 0 (NUM-5)
  const { ranks: p, count: priorities } = ranks(negPriority);

  // A stable counting sort by priority rank keeps the id-key order inside each priority.
  const start = new Uint32Array(priorities + 1);
  for (let i = 0; i < m; i++) start[p[i]! + 1]!++;
  for (let r = 1; r <= priorities; r++) start[r]! += start[r - 1]!;
  const order = new Uint32Array(m);
  for (let j = 0; j < m; j++) {
    const i = byKey[j]! % m;
    order[start[p[i]!]!++] = i;
  }

  // Runs with the same priority and id key: order them by the whole id.
  for (let j = 0; j < m; ) {
    const pj = p[order[j]!];
    const kj = keys[order[j]!];
    let end = j + 1;
    while (end < m && p[order[end]!] === pj && keys[order[end]!] === kj) end++;
    if (end - j > 1) sortRun(blocks, order, j, end);
    j = end;
  }
  return order;
}
