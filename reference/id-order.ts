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
import { indexArray } from './block-arrays.js';
import { keysToSort, stableSortByKey } from './radix.js';
import type { Keyed } from './radix.js';
import { compareCodePoints } from './unicode.js';

/** At most this many units go into each 32-bit word of a key. */
const UNITS_PER_WORD = 8;
const SURROGATES = 0xd800;

/** 0, 1, ..., n - 1: the order of ids that arrived in code-point order. */
export function identityOrder(n: number): Uint32Array {
  const order = indexArray(n, 'idOrder');
  for (let i = 0; i < n; i++) order[i] = i;
  return order;
}

/** The keyed positions: the first KEYED units after the shared prefix. */
const KEYED = 2 * UNITS_PER_WORD;

/**
 * What keying the ids needs to know of all of them first, gathered in one
 * pass: the prefix every id shares, the units that occur in the keyed
 * positions after it (a superset will do: digits stay in code-point order),
 * and how far past the prefix the longest id reaches. Validation feeds it
 * each id while it has the id in hand.
 */
export class IdSketch {
  private first = '';
  /** Length of the prefix shared by every id so far. */
  prefix = 0;
  longest = 0;
  /** 1 for every unit below U+D800 seen in a keyed position. */
  readonly units = new Uint8Array(SURROGATES);
  private count = 0;

  add(id: string): void {
    if (this.count++ === 0) {
      this.first = id;
      this.prefix = id.length;
    } else {
      const first = this.first;
      const was = this.prefix;
      let p = 0;
      while (p < was && p < id.length && id.charCodeAt(p) === first.charCodeAt(p)) p++;
      // Positions the prefix gives up held the first id's units in every id so far.
      if (p < was) this.mark(first, p, was);
      this.prefix = p;
    }
    this.mark(id, this.prefix, id.length);
    if (id.length > this.longest) this.longest = id.length;
  }

  /** Units of `id` from `from`, within KEYED of it and before `to`, up to the first unit at or above U+D800. */
  private mark(id: string, from: number, to: number): void {
    const end = Math.min(to, from + KEYED);
    for (let j = from; j < end; j++) {
      const u = id.charCodeAt(j);
      if (u >= SURROGATES) return;
      this.units[u] = 1;
    }
  }
}

/** Each id's key, from the unit after the shared prefix on: as many units as digits of the alphabet fit in each word. */
function idKeys(ids: readonly string[], sketch: IdSketch): Keyed {
  const from = sketch.prefix;
  const digit = new Uint16Array(SURROGATES);
  let size = 0;
  for (let u = 0; u < SURROGATES; u++) if (sketch.units[u]) digit[u] = ++size;
  const top = size + 1;
  const base = size + 2;
  // Every digit below `base`, and base^units at most 2^32: a word never overflows.
  // No more units than the longest id has after the prefix: a shorter key takes fewer radix passes.
  const units = Math.max(1, Math.min(UNITS_PER_WORD, Math.floor(32 / Math.log2(base)), sketch.longest - from));
  // scale[c]: the factor that shifts c digits up to fill 2 * units digits.
  const scale = new Array<number>(2 * units + 1);
  for (let c = 0; c <= 2 * units; c++) scale[c] = base ** (2 * units - c);

  const m = ids.length;
  const keys = keysToSort(m);
  const { indices, low, high } = keys;
  for (let i = 0; i < m; i++) {
    indices[i] = i;
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
  return keys;
}

/**
 * Fast path for VAL-4 and NUM-4: the indices of `ids` in code-point order, or
 * null when two ids are equal. `sketch`, when given, has seen every id.
 */
export function uniqueIdOrder(ids: readonly string[], sketch?: IdSketch): Uint32Array | null {
  const m = ids.length;
  if (sketch === undefined) {
    sketch = new IdSketch();
    for (const id of ids) sketch.add(id);
  }
  const sorted = stableSortByKey(idKeys(ids, sketch));
  if (!sortTiedRuns(ids, sorted)) return null;
  const out = indexArray(m, 'idOrder');
  out.set(sorted.indices);
  return out;
}

/**
 * Runs with the same key, ordered by the whole id; false when two ids are
 * equal (they end up side by side). A function of its own: the engine
 * compiles this loop while it runs, and code compiled that way inside
 * uniqueIdOrder was thrown away at the calls after the loop, on every request.
 */
function sortTiedRuns(ids: readonly string[], sorted: Keyed): boolean {
  const { indices, low, high } = sorted;
  const m = indices.length;
  for (let j = 0; j < m; ) {
    let end = j + 1;
    while (end < m && low[end] === low[j] && high[end] === high[j]) end++;
    if (end - j > 1 && !sortRun(ids, indices.subarray(j, end))) return false;
    j = end;
  }
  return true;
}

/** Sorts `run` by the whole ids; false when two of them are equal. */
function sortRun(ids: readonly string[], run: Uint32Array): boolean {
  run.sort((x, y) => compareCodePoints(ids[x]!, ids[y]!));
  for (let x = 1; x < run.length; x++) if (ids[run[x - 1]!] === ids[run[x]!]) return false;
  return true;
}
