/**
 * The ids of a large request in code-point order (NUM-4). Validation needs it
 * to find two equal ids (VAL-4) without hashing a million strings, and TIER-3
 * needs it to break ties of priority, so it is computed once, while validating.
 *
 * With a million ids, a comparator sort spends its time in random string
 * reads; here each id gets a 64-bit key, radix.ts sorts the keys, and ids are
 * compared whole only where their keys tie. The key packs the first units of
 * the id after the prefix every id shares, as digits of a number whose order
 * never contradicts code-point order: the end of the id is digit 0, a unit
 * below U+D800 is 1 + its rank among the units that occur there, and a unit at
 * or above U+D800 is the top digit, with the rest of the key 0 (the whole-id
 * comparison orders those).
 *
 * The tests check it against the plain version: sort with compareCodePoints, and a Set.
 */
import { stableSortByKey } from './radix.js';
import { compareCodePoints } from './unicode.js';

/** From this many blocks validation sorts the ids; below it a set finds repeats and a comparator ranks. */
export const ID_ORDER_MIN = 512;

/** At most this many units go into each 32-bit word of a key. */
const UNITS_PER_WORD = 8;
const SURROGATES = 0xd800;

/** 0, 1, ..., n - 1: the order of ids that arrived in code-point order. */
export function identityOrder(n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

function sharedPrefixLength(ids: readonly string[]): number {
  const prefix = ids[0]!;
  let n = prefix.length;
  for (let i = 1; i < ids.length && n > 0; i++) {
    const id = ids[i]!;
    if (id.length < n) n = id.length;
    let j = 0;
    while (j < n && id.charCodeAt(j) === prefix.charCodeAt(j)) j++;
    n = j;
  }
  return n;
}

/** Each id's key, from the unit at `from` on: as many units as digits of the alphabet fit in each word. */
function idKeys(ids: readonly string[], from: number): { low: Uint32Array; high: Uint32Array } {
  // The alphabet: every unit below U+D800 that occurs in the keyed positions.
  const digit = new Uint16Array(SURROGATES);
  for (const id of ids) {
    const end = Math.min(id.length, from + 2 * UNITS_PER_WORD);
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
  // Every digit below `base`, and base^units at most 2^32: a word never overflows.
  const units = Math.min(UNITS_PER_WORD, Math.floor(32 / Math.log2(base)));

  // scale[c]: the factor that shifts c digits up to fill 2 * units digits.
  const scale = Array.from({ length: 2 * units + 1 }, (_, c) => base ** (2 * units - c));

  const m = ids.length;
  const low = new Uint32Array(m);
  const high = new Uint32Array(m);
  for (let i = 0; i < m; i++) {
    const id = ids[i]!;
    const end = Math.min(id.length, from + 2 * units);
    // The first `units` digits go to the high word, the next ones to the low word.
    let hi = 0;
    let lo = 0;
    let j = from;
    for (; j < end; j++) {
      const u = id.charCodeAt(j);
      const d = u < SURROGATES ? digit[u]! : top;
      if (j - from < units) hi = hi * base + d;
      else lo = lo * base + d;
      if (u >= SURROGATES) {
        j++;
        break;
      }
    }
    // Digits past the end (or after a high unit) are 0.
    const c = j - from;
    if (c <= units) {
      high[i] = hi * scale[c + units]!;
      low[i] = 0;
    } else {
      high[i] = hi;
      low[i] = lo * scale[c]!;
    }
  }
  return { low, high };
}

/**
 * Fast path for VAL-4 and NUM-4: the indices of `ids` in code-point order, or
 * null when two ids are equal. `ids` must not be empty.
 */
export function uniqueIdOrder(ids: readonly string[]): Uint32Array | null {
  const m = ids.length;
  const { low, high } = idKeys(ids, sharedPrefixLength(ids));
  const sorted = stableSortByKey({ indices: identityOrder(m), low, high });
  const order = sorted.indices;

  // Runs with the same key: order them by the whole id; two equal ids end up side by side.
  const byWholeId = (x: number, y: number): number => compareCodePoints(ids[x]!, ids[y]!);
  for (let j = 0; j < m; ) {
    let end = j + 1;
    while (end < m && sorted.low[end] === sorted.low[j] && sorted.high[end] === sorted.high[j]) end++;
    if (end - j > 1) {
      const run = order.subarray(j, end).sort(byWholeId);
      for (let x = 1; x < run.length; x++) if (ids[run[x - 1]!] === ids[run[x]!]) return null;
    }
    j = end;
  }
  return order;
}
