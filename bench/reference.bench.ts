/**
 * The reference at the floor. Every goal is a ratio of two numbers
 * measured in this same run, printed, never asserted:
 *
 *   1. large requests (tiered, every capability) against the floor program of
 *      reference-workload.ts, at 1e5 and 1e6 blocks, with ids sorted and
 *      shuffled, with many priority ties and none: within 1.5x;
 *   2. small requests (50 blocks, in process, warm) against today's reference
 *      from git (BASELINE_COMMIT): at least 4x the requests per second (the
 *      floor program is timed beside them, as the ceiling of what is possible);
 *   3. peak RSS at 1e6 against the input alone, each in a process of its own
 *      (reference-memory.ts): at most 1.5x;
 *   4. beside them, the `ranked` profile and the validation alone.
 *
 * Large requests are measured one size and shape per process
 * (reference-large.ts, which says why), and goal 1's ratio in PROCESSES
 * processes: it moves by several percent from one process to the next, so a
 * ratio near the goal is called on the line unless every process agrees.
 * Times are the best of several runs, the reference and the floor alternating
 * so both see the same machine load, each timed run after a collection and an
 * untimed run of the same program.
 *
 *   node --import tsx --expose-gc bench/reference.bench.ts [maxBlocks]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assemble } from '../reference/index.js';
import type { Request } from '../reference/index.js';
import { BASELINE_COMMIT, BASELINE_STATED, loadBaseline } from './reference-baseline.js';
import type { Assemble } from './reference-baseline.js';
import { floor, makeRequest, SHAPES, shapeName } from './reference-workload.js';
import type { Shape } from './reference-workload.js';
import type { Large as LargeTimes, Tiered } from './reference-large.js';

const GOAL_LARGE = 1.5;
const GOAL_SMALL = 4;
const GOAL_MEMORY = 1.5;
const SMALL_BLOCKS = 50;
/**
 * Processes each large size and shape is timed in for goal 1. One process
 * gives a stable best time, but the next one can differ: at 1e5 with shuffled
 * ids and many ties, six processes gave 1.45x to 1.55x (the floor moving as
 * much as the reference), so one process cannot say which side of 1.5x it is.
 */
const PROCESSES = 3;

const max = Number(process.argv[2] ?? 1e6);
const sizes = [1e5, 1e6].filter((n) => n <= max);

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) console.log('  ' + r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
}

const ms = (t: number): string => `${t < 100 ? t.toFixed(1) : t.toFixed(0)} ms`;
const ratio = (x: number): string => `${x.toFixed(2)}x`;

/** One size and shape: every number of its first process, and goal 1's ratio in each process. */
type Large = LargeTimes & { shape: Shape; ratios: number[] };

/** What `script` (a file beside this one) prints as JSON, run in a fresh process with `args` and node's `flags`. */
function inOwnProcess<T>(script: string, args: string[], flags: string[] = []): T {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', ...flags, path, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${script} ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** One size and shape, measured in a process of its own (reference-large.ts says why), then the tiered ratio in further ones. */
function measureLarge(n: number, shape: Shape): Large {
  const args = [String(n), shape.ids, shape.priorities];
  const flags = ['--max-old-space-size=8192'];
  const first = inOwnProcess<LargeTimes>('./reference-large.ts', args, flags);
  const ratios = [first.tiered / first.floor];
  for (let p = 1; p < PROCESSES; p++) {
    const next = inOwnProcess<Tiered>('./reference-large.ts', [...args, 'tiered'], flags);
    ratios.push(next.tiered / next.floor);
  }
  return { ...first, shape, ratios };
}

/** Requests per second of `fn` over `requests`, for about `millis`. */
function rate(fn: Assemble, requests: readonly Request[], millis: number): number {
  let done = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < millis) {
    for (const r of requests) fn(r);
    done += requests.length;
    t = performance.now();
  }
  return (done / (t - t0)) * 1000;
}

interface Memory {
  shape: Shape;
  input: number;
  assembled: number;
}

/** Peak RSS of a fresh process that builds the request and, for `assemble`, assembles it. */
function peakRss(what: 'input' | 'assemble', n: number, shape: Shape): number {
  return inOwnProcess<{ maxRss: number }>('./reference-memory.ts', [what, String(n), shape.ids, shape.priorities]).maxRss;
}

// 2: small requests against today's reference, first, while both have seen only small requests: the compiler's
// feedback from large ones would weigh on this reference and not on today's, which is loaded fresh.
const small = Array.from({ length: 256 }, (_, i) => makeRequest(SMALL_BLOCKS, SHAPES[i % SHAPES.length]!, 7000 + i));
const baseline = await loadBaseline();
const contenders: [string, Assemble][] = [['this reference', assemble]];
if ('assemble' in baseline) contenders.push([`today's (${BASELINE_COMMIT}, from git)`, baseline.assemble]);
// The floor on small requests too: it shows how far any exact assembler can go.
contenders.push(['the floor program', floor as Assemble]);
for (const [, fn] of contenders) rate(fn, small, 1500); // warm-up
const rates = contenders.map(() => 0);
for (let round = 0; round < 7; round++) contenders.forEach(([, fn], c) => (rates[c] = Math.max(rates[c]!, rate(fn, small, 300))));
if ('dispose' in baseline) baseline.dispose();
const before = 'assemble' in baseline ? rates[1]! : BASELINE_STATED.requestsPerSecond;
console.log(`\nSmall requests: ${SMALL_BLOCKS} blocks, in process, warm (best of 7 rounds; goal >= ${GOAL_SMALL}x today's)`);
table([
  ['assembler', '', 'requests/s'],
  ...contenders.map(([name], c) => [name, '', Math.round(rates[c]!).toLocaleString('en-US')]),
]);
if ('error' in baseline) {
  console.log(`  today's reference could not be loaded (${baseline.error}); compared with ${before.toLocaleString('en-US')} req/s, measured on ${BASELINE_STATED.where}`);
}

// 1 and 4: large requests, validation alone and ranked.
const large: Large[] = [];
for (const n of sizes) for (const shape of SHAPES) large.push(measureLarge(n, shape));

const runs = sizes.map((n) => `${large.find((l) => l.n === n)!.reps} at ${n.toExponential(0)}`).join(', ');
console.log(`\nLarge requests, tiered with every capability, against the floor (best of ${runs} timed runs; goal <= ${GOAL_LARGE}x)`);
console.log(`  (times from the first process; the ratio in each of ${PROCESSES} processes of their own)`);
table([
  ['blocks', 'ids, priorities', 'reference', 'floor', 'ratio', 'in each process'],
  ...large.map((l) => [l.n.toExponential(0), shapeName(l.shape), ms(l.tiered), ms(l.floor), ratio(l.tiered / l.floor), l.ratios.map((x) => x.toFixed(2)).join(' ')]),
]);
console.log('\nValidation alone (validateRequest), against the floor');
table([
  ['blocks', 'ids, priorities', 'validation', 'floor', 'ratio'],
  ...large.map((l) => [l.n.toExponential(0), shapeName(l.shape), ms(l.validation), ms(l.validationFloor), ratio(l.validation / l.validationFloor)]),
]);
console.log("\nThe join alone: the included contents joined in input order, as the floor nearly does, and in the context's order");
table([
  ['blocks', 'ids, priorities', 'input order', "context's order", 'ratio'],
  ...large.map((l) => [l.n.toExponential(0), shapeName(l.shape), ms(l.joinInputOrder), ms(l.joinContextOrder), ratio(l.joinContextOrder / l.joinInputOrder)]),
]);
console.log('\nProfile ranked, the same blocks, against the floor');
table([
  ['blocks', 'ids, priorities', 'ranked', 'floor', 'ratio'],
  ...large.map((l) => [l.n.toExponential(0), shapeName(l.shape), ms(l.ranked), ms(l.rankedFloor), ratio(l.ranked / l.rankedFloor)]),
]);

// 3: memory at 1e6, each number from a process of its own.
const memory: Memory[] = [];
if (max >= 1e6) {
  for (const shape of SHAPES) memory.push({ shape, input: peakRss('input', 1e6, shape), assembled: peakRss('assemble', 1e6, shape) });
  console.log(`\nPeak RSS at 1e6 blocks: building the input and assembling it, against building the input alone (goal <= ${GOAL_MEMORY}x)`);
  const mib = (b: number): string => `${Math.round(b / 2 ** 20)} MiB`;
  table([
    ['ids, priorities', '', 'input alone', 'with assembly', 'ratio'],
    ...memory.map((m) => [shapeName(m.shape), '', mib(m.input), mib(m.assembled), ratio(m.assembled / m.input)]),
  ]);
}

// The goals, each as the worst ratio over the shapes.
const worst = (xs: number[]): number => Math.max(...xs);
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
/**
 * Goal 1 from the worst shape's ratios over the processes, `low` the best
 * process of the worst shape (the highest of the shapes' lowest) and `high`
 * the worst process of any: met when every process of every shape is within
 * the goal, NOT met when every process of some shape is over it, and
 * otherwise on the line, since which side it falls depends on the process.
 */
function verdictWithin(low: number, high: number, goal: number): string {
  if (high <= goal) return 'met';
  if (low > goal) return 'NOT met';
  return 'on the line (some processes within the goal, some over it)';
}
console.log('\nGoals, worst case over the shapes:');
for (const n of sizes) {
  const shapes = large.filter((l) => l.n === n).map((l) => l.ratios);
  const low = worst(shapes.map((runs) => Math.min(...runs)));
  const high = worst(shapes.map((runs) => Math.max(...runs)));
  console.log(`  1. large requests at ${n.toExponential(0)}: ${ratio(low)} to ${ratio(high)} the floor over ${PROCESSES} processes (goal <= ${GOAL_LARGE}x): ${verdictWithin(low, high, GOAL_LARGE)}`);
}
const speedup = rates[0]! / before;
const floorRate = rates[contenders.length - 1]!;
console.log(`  2. small requests: ${ratio(speedup)} today's requests per second (goal >= ${GOAL_SMALL}x): ${verdict(speedup >= GOAL_SMALL)}`);
console.log(`     (${GOAL_SMALL}x today's is ${Math.round(GOAL_SMALL * before).toLocaleString('en-US')} req/s; the floor program does ${Math.round(floorRate).toLocaleString('en-US')}, ${ratio(floorRate / before)} today's)`);
if (memory.length > 0) {
  const m = worst(memory.map((x) => x.assembled / x.input));
  console.log(`  3. peak RSS at 1e6: ${ratio(m)} the input's (goal <= ${GOAL_MEMORY}x): ${verdict(m <= GOAL_MEMORY)}`);
} else console.log('  3. peak RSS at 1e6: not measured (maxBlocks below 1e6)');
console.log('  4. ranked and validation-only benchmarks: printed above');
