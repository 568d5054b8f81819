/**
 * Per-block numbers, by block index, in typed arrays (1 to 8 bytes a block)
 * that an assembly takes from a set kept for the next one. Allocating them
 * afresh costs twice over: for a request of 50 blocks, a typed array of more
 * than a few dozen bytes costs more than the whole selection; for a million
 * blocks, some 50 MB outside the heap at every assembly makes the engine
 * collect its whole heap (external memory pressure), which costs more than
 * assembling. The set grows to the largest request seen. Only the outermost
 * assembly uses it; one nested in it (a getter of the request that itself
 * assembles) gets its own arrays.
 */
/**
 * From this many blocks a request is large: validation sorts its ids (to find
 * repeats, and for the ranking key's tie-break) and the fast paths rank it.
 * Below it a set finds repeats and comparators rank, which the bench found
 * faster up to some 700 blocks (the fast paths have fixed costs: an alphabet
 * table, radix buckets).
 */
export const LARGE = 768;

export type Numbers = Float64Array;
export type Counts = Uint32Array;
export type Bytes = Uint8Array;

const kept = new Map<string, ArrayBuffer>();
/** The set the running assembly takes from; null: allocate. */
let lending: Map<string, ArrayBuffer> | null = null;
let lent = false;

/** Runs `f`, a validation or an assembly, with the kept arrays, or with fresh ones when it is nested in another. */
export function withKeptArrays<T>(f: () => T): T {
  const outer = lending;
  const outermost = !lent;
  lent = true;
  lending = outermost ? kept : null;
  try {
    return f();
  } finally {
    lending = outer;
    if (outermost) lent = false;
  }
}

/** A buffer of at least `size` bytes, the same one each time for `name`, or null outside withKeptArrays. */
function keptBuffer(name: string, size: number): ArrayBuffer | null {
  if (lending === null) return null;
  let b = lending.get(name);
  if (b === undefined || b.byteLength < size) {
    b = new ArrayBuffer(size);
    lending.set(name, b);
  }
  return b;
}

/** n zeros; `name` says what they are for, so two uses at once never share a kept buffer. */
export function doubles(n: number, name: string): Numbers {
  const b = keptBuffer(name, 8 * n);
  return b === null ? new Float64Array(n) : new Float64Array(b, 0, n).fill(0);
}

/** n zeros, for integers from 0 to 2^32 - 1. */
export function counts(n: number, name: string): Counts {
  return indexArray(n, name);
}

/** n zeros, for integers from 0 to 255. */
export function bytes(n: number, name: string): Bytes {
  const b = keptBuffer(name, n);
  return b === null ? new Uint8Array(n) : new Uint8Array(b, 0, n).fill(0);
}

/** n zeros, for block indices. */
export function indexArray(n: number, name: string): Uint32Array {
  const b = keptBuffer(name, 4 * n);
  return b === null ? new Uint32Array(n) : new Uint32Array(b, 0, n).fill(0);
}
