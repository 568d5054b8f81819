/**
 * Sorting many blocks by the plain ranking key (-priority, block_id by code
 * points) without a JavaScript comparator. With a million blocks, a comparator
 * sort spends its time in a million random object and string reads per pass;
 * here the engine sorts plain numbers, and strings are compared only where two
 * blocks share a priority and the first units of their ids.
 *
 * The key of an id is its first three UTF-16 units after the prefix every id
 * shares, each mapped so that numeric order never contradicts code-point order:
 * end of string -> 0, a unit below U+D800 -> unit + 1, and a unit at or above
 * U+D800 -> 0xD801 with the rest of the key 0 (such units are ordered by the
 * exact comparison). Equal keys are then put in order by compareCodePoints.
 */
import { compareCodePoints } from './unicode.js';
import type { NormalBlock } from './validate.js';

const BASE = 0xd802; // three digits of this base stay below 2^53
const HIGH = 0xd801;

/** Below this many blocks the comparator sort is as fast, and simpler. */
export const KEYED_SORT_MIN = 512;

function sharedPrefixLength(blocks: readonly NormalBlock[]): number {
  let prefix = blocks[0]!.block_id;
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

function idKey(id: string, from: number): number {
  let key = 0;
  let high = false;
  for (let j = from; j < from + 3; j++) {
    let digit = 0;
    if (!high && j < id.length) {
      const u = id.charCodeAt(j);
      if (u < 0xd800) digit = u + 1;
      else {
        digit = HIGH;
        high = true;
      }
    }
    key = key * BASE + digit;
  }
  return key;
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

/** The blocks in (-priority, block_id) order, as a new array; ids must be unique. */
export function sortByPlainRank(blocks: readonly NormalBlock[]): NormalBlock[] {
  const m = blocks.length;
  if (m === 0) return [];
  const from = sharedPrefixLength(blocks);
  const keys = new Float64Array(m);
  const negPriority = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const b = blocks[i]!;
    keys[i] = idKey(b.block_id, from);
    negPriority[i] = 0 - b.priority; // 0 - x also turns -0 into 0 (NUM-5)
  }
  const k = ranks(keys).ranks;
  const { ranks: p, count: priorities } = ranks(negPriority);

  // By id key (ties by input position), as numbers: rank * m + i is exact below 2^53 for m < 2^26.
  const byKey = new Float64Array(m);
  for (let i = 0; i < m; i++) byKey[i] = k[i]! * m + i;
  byKey.sort();

  // A stable counting sort by priority rank keeps the id-key order inside each priority.
  const start = new Uint32Array(priorities + 1);
  for (let i = 0; i < m; i++) start[p[i]! + 1]!++;
  for (let r = 1; r <= priorities; r++) start[r]! += start[r - 1]!;
  const order = new Uint32Array(m);
  for (let j = 0; j < m; j++) {
    const i = byKey[j]! % m;
    order[start[p[i]!]!++] = i;
  }

  const out: NormalBlock[] = new Array(m);
  for (let j = 0; j < m; j++) out[j] = blocks[order[j]!]!;
  // Runs with the same priority and id key: order them by the whole id.
  for (let j = 0; j < m; ) {
    const i = order[j]!;
    let end = j + 1;
    while (end < m && p[order[end]!] === p[i] && k[order[end]!] === k[i]) end++;
    if (end - j > 1) {
      const run = out.slice(j, end).sort((a, b) => compareCodePoints(a.block_id, b.block_id));
      for (let r = 0; r < run.length; r++) out[j + r] = run[r]!;
    }
    j = end;
  }
  return out;
}
