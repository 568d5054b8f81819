/**
 * One large-request measurement, in a process of its own: build the benchmark
 * request of N blocks with the given shape, then time the reference (tiered,
 * ranked, validation alone) and the joins against the floor, and print the
 * times as JSON. Run by reference.bench.ts, once per size and shape.
 *
 * Why a process each: in one process, a request built after another one has
 * been built and dropped is read more slowly than the first, whatever the
 * order it is assembled in and whatever its shape (validating 1e5 shuffled ids:
 * 15-17 ms for the request built first, 20-25 ms for one built after it; see
 * docs/reference-performance.md). Every row then starts from the same heap,
 * not only the first.
 *
 * With `tiered` as a fourth argument it times only the tiered assembly and
 * the floor: the bench runs that in further processes of their own to see how
 * far the ratio moves from one process to the next.
 *
 *   node --import tsx --expose-gc bench/reference-large.ts N ids priorities [tiered]
 */
import { assemble, isErrorAnswer, validateRequest } from '../reference/index.js';
import type { Request } from '../reference/index.js';
import { floor, makeRequest } from './reference-workload.js';
import type { IdOrder, Priorities } from './reference-workload.js';

const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});

function best(xs: number[]): number {
  return Math.min(...xs);
}

/**
 * Best times of `a` and `b`, run alternately so both see the same machine
 * load. Before each timed run: a collection, so neither pays for the other's
 * garbage, then one untimed run of the same program, since a forced
 * collection also discards the engine's optimized code.
 */
function timePair(a: () => unknown, b: () => unknown, reps: number): [number, number] {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < reps; i++) {
    for (const [fn, out] of [[a, ta], [b, tb]] as const) {
      gc();
      fn();
      const t0 = performance.now();
      fn();
      out.push(performance.now() - t0);
    }
  }
  return [best(ta), best(tb)];
}

/** The tiered assembly against the floor, in one process. */
export interface Tiered {
  n: number;
  /** Timed runs of each program; the best is kept. */
  reps: number;
  tiered: number;
  floor: number;
}

export interface Large extends Tiered {
  validation: number;
  validationFloor: number;
  ranked: number;
  rankedFloor: number;
  /** Joining the included contents alone, in input order and in the order of the context. */
  joinInputOrder: number;
  joinContextOrder: number;
}

/**
 * The included contents in input order and in the context's order. The floor
 * joins nearly in input order, which is also the order they lie in memory; the
 * context's order (REN-1: source, -priority, block_id) is unrelated to memory
 * when ids arrive shuffled, and the join then reads each content from afar.
 */
function includedContents(req: Request): [string[], string[]] {
  const out = assemble(req);
  if (isErrorAnswer(out)) throw new Error(`bench request rejected: ${out.error.message}`);
  const at = new Map(req.blocks.map((b, i) => [b.block_id, i]));
  const rendered = out.included.map((id) => at.get(id)!);
  const input = rendered.slice().sort((a, b) => a - b);
  return [input.map((i) => req.blocks[i]!.content), rendered.map((i) => req.blocks[i]!.content)];
}

const repsFor = (n: number): number => (n <= 1e5 ? 15 : 5);
const warmUps = (n: number): number => (n <= 1e5 ? 3 : 1);

function accepted(req: Request): void {
  const out = assemble(req);
  if (isErrorAnswer(out)) throw new Error(`bench request rejected: ${out.error.message}`);
}

function measureTiered(n: number, req: Request): Tiered {
  accepted(req);
  for (let i = warmUps(n); i > 0; i--) {
    assemble(req);
    floor(req);
  }
  const reps = repsFor(n);
  const [tiered, f] = timePair(() => assemble(req), () => floor(req), reps);
  return { n, reps, tiered, floor: f };
}

function measureLarge(n: number, req: Request): Large {
  const ranked: Request = { ...req, profile: 'ranked' };
  accepted(req);
  accepted(ranked);
  const reps = repsFor(n);
  // Untimed runs first: the compiler has seen every path before the clock starts.
  for (let i = warmUps(n); i > 0; i--) {
    assemble(req);
    assemble(ranked);
    validateRequest(req);
    floor(req);
  }
  const [tiered, f1] = timePair(() => assemble(req), () => floor(req), reps);
  const [validation, f2] = timePair(() => validateRequest(req), () => floor(req), reps);
  const [rankedTime, f3] = timePair(() => assemble(ranked), () => floor(req), reps);
  const [inInput, inContext] = includedContents(req);
  const [joinInputOrder, joinContextOrder] = timePair(() => inInput.join('\n\n'), () => inContext.join('\n\n'), reps);
  return { n, reps, tiered, floor: f1, validation, validationFloor: f2, ranked: rankedTime, rankedFloor: f3, joinInputOrder, joinContextOrder };
}

const [n, ids, priorities, only] = process.argv.slice(2);
const size = Number(n);
const req = makeRequest(size, { ids: ids as IdOrder, priorities: priorities as Priorities });
console.log(JSON.stringify(only === 'tiered' ? measureTiered(size, req) : measureLarge(size, req)));
