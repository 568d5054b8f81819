/**
 * The reference against a fair floor. Every goal is a ratio of two numbers
 * measured in this same run, printed, never asserted:
 *
 *   1. large requests (tiered, every capability) against the floor program of
 *      reference-workload.ts, which renders in REN-1 order as every exact
 *      assembler must, at 1e5 and 1e6 blocks, with ids sorted and shuffled,
 *      with many priority ties and none: within 1.5x;
 *   2. small requests (50 blocks, in process, warm) against the same floor
 *      on the same requests: within 2x;
 *   3. peak RSS at 1e6 against the input alone, each in a process of its own
 *      (reference-memory.ts): at most 1.5x;
 *   and beside them the `ranked` profile and validation alone, and the
 *   before/after table: the reference of BASELINE_COMMIT against the floor
 *   the bench had then (TIER-3's order with ties by input position, joined in
 *   that order, not REN-1's).
 *
 * Large requests are measured one size and shape per process
 * (reference-large.ts, which says why), and goal 1's ratio in PROCESSES
 * processes: it moves by several percent from one process to the next, so a
 * ratio near the goal is called on the line unless every process agrees.
 * Times are the best of several runs, the programs taking turns so all see
 * the same machine load, each timed run after a collection and an untimed
 * run of the same program.
 *
 *   node --import tsx --expose-gc bench/reference.bench.ts [maxBlocks]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assemble } from '../reference/index.js';
import type { Request } from '../reference/index.js';
import { BASELINE_COMMIT, checkoutReference, loadReference } from './reference-baseline.js';
import type { Assemble } from './reference-baseline.js';
import { floor, inputOrderFloor, makeRequest, SHAPES, shapeName } from './reference-workload.js';
import type { Shape } from './reference-workload.js';
import type { Large as LargeTimes, Tiered } from './reference-large.js';

const GOAL_LARGE = 1.5;
const GOAL_SMALL = 2;
const GOAL_MEMORY = 1.5;
const SMALL_BLOCKS = 50;
/**
 * Processes each large size and shape is timed in for goal 1. One process
 * gives a stable best time, but the next one can differ: at 1e5 with shuffled
 * ids and many ties, six processes gave 1.45x to 1.55x (the floor moving as
 * much as the reference), so one process cannot say which side of 1.5x it is.
 */
const PROCESSES = 3;
const SMALL_ROUNDS = 7;

const max = Number(process.argv[2] ?? 1e6);
const sizes = [1e5, 1e6].filter((n) => n <= max);

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) console.log('  ' + r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
}

const ms = (t: number): string => `${t < 100 ? t.toFixed(1) : t.toFixed(0)} ms`;
const ratio = (x: number): string => `${x.toFixed(2)}x`;
const rate = (x: number): string => Math.round(x).toLocaleString('en-US');

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
function measureLarge(n: number, shape: Shape, beforeDir: string | undefined): Large {
  const args = [String(n), shape.ids, shape.priorities];
  const flags = ['--max-old-space-size=8192'];
  const first = inOwnProcess<LargeTimes>('./reference-large.ts', [...args, 'all', ...(beforeDir ? [beforeDir] : [])], flags);
  const ratios = [first.tiered / first.floor];
  for (let p = 1; p < PROCESSES; p++) {
    const next = inOwnProcess<Tiered>('./reference-large.ts', [...args, 'tiered'], flags);
    ratios.push(next.tiered / next.floor);
  }
  return { ...first, shape, ratios };
}

/** Requests per second of `fn` over `requests`, for about `millis`. */
function requestsPerSecond(fn: Assemble, requests: readonly Request[], millis: number): number {
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

/** Peak RSS of a fresh process that builds the request and, for `assemble`, assembles it. */
function peakRss(what: 'input' | 'assemble', n: number, shape: Shape): number {
  return inOwnProcess<{ maxRss: number }>('./reference-memory.ts', [what, String(n), shape.ids, shape.priorities]).maxRss;
}

/**
 * Met when every measurement is within the goal, NOT met when every one is
 * over it, and otherwise on the line, since which side it falls depends on
 * the process.
 */
function verdictWithin(low: number, high: number, goal: number): string {
  if (high <= goal) return 'met';
  if (low > goal) return 'NOT met';
  return 'on the line (some measurements within the goal, some over it)';
}

const checkout = checkoutReference();
const beforeDir = 'dir' in checkout ? checkout.dir : undefined;
const before = beforeDir ? await loadReference(beforeDir) : undefined;

console.log('How these numbers are taken: each program is timed several times, taking turns with the others so all see the');
console.log('same load (other jobs share this machine), and the best time is kept; large requests are built and timed in');
console.log(`fresh processes, goal 1's ratio in ${PROCESSES} of them. "Before" is the reference of ${BASELINE_COMMIT}, loaded from git, against the`);
console.log('floor the bench had then (ties by input position, joined in that order); "after" is today\'s against the floor');
console.log('that renders in REN-1 order.');
if ('error' in checkout) console.log(`  (the reference of ${BASELINE_COMMIT} could not be loaded: ${checkout.error}; today's numbers only)`);

// 2: small requests first, while every program has seen only small requests: the compiler's feedback from large
// ones would weigh on this process's reference and not on the other programs.
const small = Array.from({ length: 256 }, (_, i) => makeRequest(SMALL_BLOCKS, SHAPES[i % SHAPES.length]!, 7000 + i));
const contenders: [string, Assemble][] = [
  ['the reference', assemble],
  ['the floor (REN-1 order)', floor as Assemble],
];
if (before) contenders.push([`the reference of ${BASELINE_COMMIT}`, before], ['the floor before (input order)', inputOrderFloor as Assemble]);
for (const [, fn] of contenders) requestsPerSecond(fn, small, 1500); // warm-up
const rounds = contenders.map((): number[] => []);
for (let round = 0; round < SMALL_ROUNDS; round++)
  contenders.forEach(([, fn], c) => {
    rounds[c]!.push(requestsPerSecond(fn, small, 300));
  });
const best = rounds.map((xs) => Math.max(...xs));
// Each round's ratio from that round's two rates, so a ratio never mixes two moments of the machine's load.
const smallRatios = rounds[0]!.map((r, i) => rounds[1]![i]! / r);
console.log(
  `\nSmall requests: ${SMALL_BLOCKS} blocks, in process, warm (best of ${SMALL_ROUNDS} rounds of 300 ms; goal: the floor at most ${GOAL_SMALL}x as fast)`,
);
table([['program', '', 'requests/s'], ...contenders.map(([name], c) => [name, '', rate(best[c]!)])]);

// 1: large requests, validation alone and ranked.
const large: Large[] = [];
for (const n of sizes) for (const shape of SHAPES) large.push(measureLarge(n, shape, beforeDir));
if ('dispose' in checkout) checkout.dispose();

const runs = sizes.map((n) => `${large.find((l) => l.n === n)!.reps} at ${n.toExponential(0)}`).join(', ');
console.log(`\nLarge requests, tiered with every capability, against the floor (best of ${runs} timed runs; goal <= ${GOAL_LARGE}x)`);
console.log(`  (times from the first process; the ratio in each of ${PROCESSES} processes of their own; before: ${BASELINE_COMMIT} against the floor before)`);
table([
  ['blocks', 'ids, priorities', 'reference', 'floor', 'ratio', 'in each process', ...(before ? ['ref. before', 'floor before', 'ratio before'] : [])],
  ...large.map((l) => [
    l.n.toExponential(0),
    shapeName(l.shape),
    ms(l.tiered),
    ms(l.floor),
    ratio(l.tiered / l.floor),
    l.ratios.map((x) => x.toFixed(2)).join(' '),
    ...(l.before ? [ms(l.before.tiered), ms(l.before.inputOrderFloor), ratio(l.before.tiered / l.before.inputOrderFloor)] : []),
  ]),
]);
console.log('\nValidation alone (validateRequest), against the floor');
table([
  ['blocks', 'ids, priorities', 'validation', 'floor', 'ratio'],
  ...large.map((l) => [l.n.toExponential(0), shapeName(l.shape), ms(l.validation), ms(l.validationFloor), ratio(l.validation / l.validationFloor)]),
]);
console.log('\nProfile ranked, the same blocks, against the floor (which renders tiered: a yardstick, not a goal)');
table([
  ['blocks', 'ids, priorities', 'ranked', 'floor', 'ratio'],
  ...large.map((l) => [l.n.toExponential(0), shapeName(l.shape), ms(l.ranked), ms(l.rankedFloor), ratio(l.ranked / l.rankedFloor)]),
]);

// 3: memory at 1e6, each number from a process of its own.
const memory: { shape: Shape; input: number; assembled: number }[] = [];
if (max >= 1e6) {
  for (const shape of SHAPES) memory.push({ shape, input: peakRss('input', 1e6, shape), assembled: peakRss('assemble', 1e6, shape) });
  console.log(`\nPeak RSS at 1e6 blocks: building the input and assembling it, against building the input alone (goal <= ${GOAL_MEMORY}x)`);
  const mib = (b: number): string => `${Math.round(b / 2 ** 20)} MiB`;
  table([
    ['ids, priorities', '', 'input alone', 'with assembly', 'ratio'],
    ...memory.map((m) => [shapeName(m.shape), '', mib(m.input), mib(m.assembled), ratio(m.assembled / m.input)]),
  ]);
}

const worst = (xs: number[]): number => Math.max(...xs);
console.log('\nGoals:');
for (const n of sizes) {
  const shapes = large.filter((l) => l.n === n).map((l) => l.ratios);
  // low: the worst shape's best process (the highest of the shapes' lowest); high: the worst process of any shape.
  const low = worst(shapes.map((r) => Math.min(...r)));
  const high = worst(shapes.map((r) => Math.max(...r)));
  const was = large.filter((l) => l.n === n && l.before).map((l) => l.before!.tiered / l.before!.inputOrderFloor);
  console.log(
    `  1. large requests at ${n.toExponential(0)}, the worst shape: ${ratio(low)} to ${ratio(high)} the floor ` +
      `over ${PROCESSES} processes (goal <= ${GOAL_LARGE}x): ${verdictWithin(low, high, GOAL_LARGE)}` +
      (was.length > 0 ? ` (before: ${ratio(worst(was))} the floor before)` : ''),
  );
}
const [smallLow, smallHigh] = [Math.min(...smallRatios), Math.max(...smallRatios)];
console.log(
  `  2. small requests: the floor does ${ratio(smallLow)} to ${ratio(smallHigh)} the reference's requests per ` +
    `second over ${SMALL_ROUNDS} rounds (goal <= ${GOAL_SMALL}x): ${verdictWithin(smallLow, smallHigh, GOAL_SMALL)}` +
    (before ? ` (before: the floor before did ${ratio(best[3]! / best[2]!)} the reference of ${BASELINE_COMMIT}'s)` : ''),
);
if (memory.length > 0) {
  const m = worst(memory.map((x) => x.assembled / x.input));
  console.log(`  3. peak RSS at 1e6, the worst shape: ${ratio(m)} the input's (goal <= ${GOAL_MEMORY}x): ${m <= GOAL_MEMORY ? 'met' : 'NOT met'}`);
} else console.log('  3. peak RSS at 1e6: not measured (maxBlocks below 1e6)');
