/**
 * Per-block numbers, by block index. A large request keeps them in typed
 * arrays (4 or 8 bytes a block, outside the garbage-collected heap); a small
 * one in plain arrays, because allocating a typed array of more than a few
 * dozen bytes costs more than a small request's whole selection.
 */
import { ID_ORDER_MIN } from './id-order.js';

export type Numbers = Float64Array | number[];
export type Counts = Uint32Array | number[];
export type Bytes = Uint8Array | number[];

const plain = (n: number): number[] => new Array<number>(n).fill(0);

export const doubles = (n: number): Numbers => (n >= ID_ORDER_MIN ? new Float64Array(n) : plain(n));
/** Integers from 0 to 2^32 - 1. */
export const counts = (n: number): Counts => (n >= ID_ORDER_MIN ? new Uint32Array(n) : plain(n));
/** Integers from 0 to 255. */
export const bytes = (n: number): Bytes => (n >= ID_ORDER_MIN ? new Uint8Array(n) : plain(n));
