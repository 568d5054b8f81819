/**
 * One memory measurement, in a process of its own (peak RSS only ever grows):
 * build the benchmark request of N blocks, then either stop (`input`, the
 * input's own size measured the same way) or assemble it (`assemble`), and
 * print the peak RSS in bytes as JSON. Run by reference.bench.ts.
 *
 *   node --import tsx --expose-gc bench/reference-memory.ts input|assemble N ids priorities
 */
import { assemble, isErrorAnswer } from '../reference/index.js';
import { makeRequest } from './reference-workload.js';
import type { IdOrder, Priorities } from './reference-workload.js';

const [what, n, ids, priorities] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});
const req = makeRequest(Number(n), { ids: ids as IdOrder, priorities: priorities as Priorities });
// Whatever building the request left behind is collected in both measurements alike.
gc();
let included = 0;
if (what === 'assemble') {
  const out = assemble(req);
  if (isErrorAnswer(out)) throw new Error(out.error.message);
  included = out.included.length;
}
const heapUsed = process.memoryUsage().heapUsed;
console.log(JSON.stringify({ what, maxRss: process.resourceUsage().maxRSS * 1024, heapUsed, blocks: req.blocks.length, included }));
