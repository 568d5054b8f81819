/**
 * One large-request measurement, in a process of its own: build the benchmark
 * request of N blocks with the given shape, then time the reference (tiered,
 * ranked, validation alone) against the floor, and print the times as JSON.
 * Run by reference.bench.ts, once per size and shape.
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
 * far the ratio moves from one process to the next. With a folder as a fifth
 * (the reference of an earlier commit, reference-baseline.ts), the first
 * process also times that reference and the floor the bench used before,
 * for the before/after table.
 *
 *   node --import tsx --expose-gc bench/reference-large.ts N ids priorities [all|tiered] [BEFORE_DIR]
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { assemble, isErrorAnswer, validateRequest } from '../reference/index.js';
import type { Request } from '../reference/index.js';
import { floor, inputOrderFloor, makeRequest } from './reference-workload.js';
import type { IdOrder, Priorities } from './reference-workload.js';

const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});

/**
 * Best times of `programs`, run in turn so all see the same machine load.
 * Before each timed run: a collection, so none pays for another's garbage,
 * then one untimed run of the same program, since a forced collection also
 * discards the engine's optimized code.
 */
function timeInTurn(programs: (() => unknown)[], reps: number): number[] {
  const best = programs.map(() => Infinity);
  for (let i = 0; i < reps; i++) {
    programs.forEach((fn, p) => {
      gc();
      fn();
      const t0 = performance.now();
      fn();
      best[p] = Math.min(best[p]!, performance.now() - t0);
    });
  }
  return best;
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
  /** With a folder of an earlier reference: its tiered time, and the floor the bench used before (input order). */
  before?: { tiered: number; inputOrderFloor: number };
}

const repsFor = (n: number): number => (n <= 1e5 ? 15 : 5);
const warmUps = (n: number): number => (n <= 1e5 ? 3 : 1);

function accepted(out: unknown): void {
  if (isErrorAnswer(out)) throw new Error(`bench request rejected: ${out.error.message}`);
}

function measureTiered(n: number, req: Request): Tiered {
  accepted(assemble(req));
  for (let i = warmUps(n); i > 0; i--) {
    assemble(req);
    floor(req);
  }
  const reps = repsFor(n);
  const [tiered, f] = timeInTurn([() => assemble(req), () => floor(req)], reps);
  return { n, reps, tiered: tiered!, floor: f! };
}

async function measureLarge(n: number, req: Request, beforeDir: string | undefined): Promise<Large> {
  const ranked: Request = { ...req, profile: 'ranked' };
  accepted(assemble(req));
  accepted(assemble(ranked));
  const earlier =
    beforeDir === undefined
      ? undefined
      : ((await import(pathToFileURL(join(beforeDir, 'reference', 'index.ts')).href)) as { assemble: (r: unknown) => unknown }).assemble;
  if (earlier) accepted(earlier(req));
  const reps = repsFor(n);
  // Untimed runs first: the compiler has seen every path before the clock starts.
  for (let i = warmUps(n); i > 0; i--) {
    assemble(req);
    assemble(ranked);
    validateRequest(req);
    floor(req);
    if (earlier) earlier(req);
  }
  const [tiered, f1] = timeInTurn([() => assemble(req), () => floor(req)], reps);
  const [validation, f2] = timeInTurn([() => validateRequest(req), () => floor(req)], reps);
  const [rankedTime, f3] = timeInTurn([() => assemble(ranked), () => floor(req)], reps);
  const out: Large = { n, reps, tiered: tiered!, floor: f1!, validation: validation!, validationFloor: f2!, ranked: rankedTime!, rankedFloor: f3! };
  if (earlier) {
    const [t, old] = timeInTurn([() => earlier(req), () => inputOrderFloor(req)], reps);
    out.before = { tiered: t!, inputOrderFloor: old! };
  }
  return out;
}

const [n, ids, priorities, only, beforeDir] = process.argv.slice(2);
const size = Number(n);
const req = makeRequest(size, { ids: ids as IdOrder, priorities: priorities as Priorities });
console.log(JSON.stringify(only === 'tiered' ? measureTiered(size, req) : await measureLarge(size, req, beforeDir)));
