/**
 * The shadow tests' traffic: core `tiered` requests, a third of them at a
 * block's very expiry instant (where the planted inclusive-expiry defect
 * answers wrong, EXP-1), the rest clear of it; and a load loop bounded both
 * in count and in time, with a fixed number of requests in flight.
 */
import { rawExchange } from './raw-http.js';
import type { RawAnswer } from './raw-http.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

export function trafficRequest(i: number): Record<string, unknown> {
  const n = 1 + (i % 4);
  const blocks = Array.from({ length: n }, (_, k) => ({
    block_id: `req${i}-block${k}`,
    source: k % 2 === 0 ? 'notes' : 'docs',
    content: `${WORDS[(i + k) % WORDS.length]} ${WORDS[(i * 3 + k) % WORDS.length]} memo ${i}`,
    priority: (i + k) % 5,
    created_at: 1000,
    ttl_seconds: k === 0 ? 60 : 0,
  }));
  return { now: i % 3 === 0 ? 1060 : 1030, budget: 40 + (i % 7) * 10, blocks };
}

/** Whether the planted defect shows on this request: the block at its expiry instant. */
export const atExpiry = (i: number): boolean => i % 3 === 0;

export interface LoadResult {
  answers: Map<number, RawAnswer>;
  sent: number;
  elapsedMs: number;
}

/** `count` requests through `url`, `inFlight` at a time, stopping early at `maxMs`. */
export async function loadLoop(url: string, o: { count: number; inFlight: number; maxMs: number }): Promise<LoadResult> {
  const answers = new Map<number, RawAnswer>();
  const t0 = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < o.count && performance.now() - t0 < o.maxMs) {
      const i = next++;
      answers.set(i, await rawExchange(`${url}/assemble`, 'POST', JSON.stringify(trafficRequest(i))));
    }
  };
  await Promise.all(Array.from({ length: o.inFlight }, worker));
  return { answers, sent: next, elapsedMs: performance.now() - t0 };
}
