/**
 * `ctxconform replay` on recorded-looking traffic (bench/replay-data.ts):
 *   1. against its floor, each request sent twice (the default), on two
 *      traffics: long recalled contents (LONG_TRAFFIC, 20,000 requests, some
 *      17 KB each) and the bench's own (AGENT_TRAFFIC, short blocks). The
 *      floor is the least work such a replay must do: read and parse every
 *      line and answer it three times, once as the oracle and twice as the
 *      implementation (replay-time.ts). Goal: within 1.5x. Before: the kit of
 *      KIT_BASELINE_COMMIT on the same traffic, built from git;
 *   2. throughput against the reference over stdio (a process speaking
 *      PROTO-3), concurrency 1 and 4 (the default), and in process with --once;
 *   3. the kit's share of the CPU of `ctxconform run` (the corpus and the
 *      default properties) against the reference as a stdio process
 *      (stdio-cpu.ts). Goal: under half;
 *   4. the whole command on 100,000 and on 1,000,000 requests in a child
 *      process, its peak resident memory read from /proc (VmHWM) while it
 *      runs: memory must not grow with the number of requests.
 * Numbers are printed, never asserted.
 *
 *   node --import tsx bench/replay.bench.ts [scale]   (scale: traffic sizes times this, default 1)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceImplementation } from '../adapters/reference.js';
import { replay } from '../traffic/replay/run.js';
import { openImplementation } from '../running/open.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { checkoutKit, KIT_BASELINE_COMMIT } from './kit-baseline.js';
import { AGENT_TRAFFIC, LONG_TRAFFIC, writeRecorded } from './replay-data.js';
import type { TrafficShape } from './replay-data.js';
import { stdioFloorCpu, stdioRunCpu } from './stdio-cpu.js';
import type { StdioCpu } from './stdio-cpu.js';

const GOAL_FLOOR = 1.5;
const GOAL_KIT_SHARE = 0.5;
/** Turns each timed program takes on each traffic (the best is kept), and rounds of the stdio CPU split (the middle one is kept). */
const ROUNDS = 4;
const CPU_ROUNDS = 3;
const scale = Number(process.argv[2] ?? 1);
const sized = (n: number): number => Math.max(1000, Math.round(n * scale));

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-replay-bench-'));
const line = (label: string, s: string): void => console.log(`${label.padEnd(52)} ${s}`);
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const ratio = (x: number): string => `${x.toFixed(2)}x`;
const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) console.log('  ' + r.map((cell, c) => (c < 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
}

async function traffic(name: string, count: number, shape: TrafficShape): Promise<string> {
  const file = join(tmp, `${name}-${count}.jsonl.gz`);
  const t0 = performance.now();
  const raw = await writeRecorded(file, count, 1, shape);
  line(
    `generated ${count.toLocaleString('en-US')} requests (${name})`,
    `${mib(raw)} of JSON lines, ${mib(statSync(file).size)} gzip, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return file;
}

interface Timing {
  requests: number;
  ms: number;
  cpuMs: number;
  mainThreadMs: number | null;
}

/** One timing by replay-time.ts, in a process of its own. */
function timed(what: 'floor' | 'replay', kitRoot: string, file: string): Timing {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'replay-time.ts'), what, kitRoot, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`replay-time.ts ${what} ${kitRoot} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Timing;
}

/** Best wall and main-thread times of each program over ROUNDS turns, the programs taking turns so all see the same load. */
function bestOf(programs: [string, () => Timing][]): Map<string, { ms: number; main: number | null; requests: number }> {
  const best = new Map<string, { ms: number; main: number | null; requests: number }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of programs) {
      const t = run();
      const was = best.get(name);
      best.set(name, {
        ms: Math.min(was?.ms ?? Infinity, t.ms),
        main: t.mainThreadMs === null ? null : Math.min(was?.main ?? Infinity, t.mainThreadMs),
        requests: t.requests,
      });
    }
  }
  return best;
}

/** Met when the ratio is within the goal by both measures, NOT met when over by both, otherwise on the line. */
function verdict(ratios: number[], goal: number): string {
  if (ratios.every((x) => x <= goal)) return 'met';
  if (ratios.every((x) => x > goal)) return 'NOT met';
  return 'on the line (within the goal by one measure, over it by the other)';
}

async function rate(impl: Implementation, manifest: Manifest, file: string, twice: boolean, concurrency: number): Promise<string> {
  const t0 = performance.now();
  const r = await replay({ sources: [{ path: file, label: 'bench' }], impl, manifest, timeoutMs: 30_000, concurrency, twice, shrink: 0, maxListed: 1000 });
  const s = (performance.now() - t0) / 1000;
  if (r.summary.pass !== r.summary.total) throw new Error(`bench replay not clean: ${JSON.stringify(r.summary)}`);
  return `${Math.round(r.summary.total / s).toLocaleString('en-US')} requests/s (${r.summary.total.toLocaleString('en-US')} in ${s.toFixed(1)} s)`;
}

/** The command in a child process; its peak resident set from /proc while it runs (Linux). */
function peakOfCommand(args: string[]): Promise<{ peakKiB: number | undefined; summary: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/ctxconform.mjs', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    let peak: number | undefined;
    const status = `/proc/${child.pid}/status`;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(status, 'utf8'));
        if (m) peak = Math.max(peak ?? 0, Number(m[1]));
      } catch {
        // Gone between two polls: the last reading stands (VmHWM only grows).
      }
    }, 100);
    child.on('exit', () => {
      clearInterval(poll);
      resolve({
        peakKiB: peak,
        summary: out.split('\n').find((l) => /^(PASS|FAIL|NOTHING TESTED|INTERRUPTED)[^:]*: \d+ pass/.test(l)) ?? out.trim().split('\n').pop() ?? '',
      });
    });
  });
}

console.log('How these numbers are taken: the floor and the replay each run in a process of their own, taking turns');
console.log(`(${ROUNDS} turns each) so that all see the same load from the other jobs on this machine, and each keeps its best.`);
console.log('Two measures: wall time, and the CPU time of the main thread, where the JavaScript runs (the process also');
console.log("counts the collector's helper threads); a goal is met when both ratios are within it. Each program first");
console.log('goes through 200 requests untimed. "Before" is the kit of ' + KIT_BASELINE_COMMIT + ', built from git, on the same traffic.');

const before = checkoutKit();
if ('error' in before) console.log(`  (the kit of ${KIT_BASELINE_COMMIT} could not be built: ${before.error}; today's numbers only)`);
const beforeRoot = 'root' in before ? before.root : undefined;

const traffics: [string, string][] = [
  ['long contents', await traffic('long', sized(20_000), LONG_TRAFFIC)],
  ["the bench's own", await traffic('agent', sized(50_000), AGENT_TRAFFIC)],
];
const floorRows: string[][] = [];
const goals: string[] = [];
for (const [name, file] of traffics) {
  const programs: [string, () => Timing][] = [
    ['floor', () => timed('floor', root, file)],
    ['replay', () => timed('replay', root, file)],
  ];
  if (beforeRoot) programs.push(['before', () => timed('replay', beforeRoot, file)]);
  const best = bestOf(programs);
  const f = best.get('floor')!;
  const r = best.get('replay')!;
  const b = best.get('before');
  const ratios = [r.ms / f.ms, ...(r.main !== null && f.main !== null ? [r.main / f.main] : [])];
  const cell = (x: { ms: number; main: number | null }): string => `${secs(x.ms)} (${x.main === null ? 'n/a' : secs(x.main)})`;
  floorRows.push([
    `${name}, ${f.requests.toLocaleString('en-US')} requests`,
    cell(f),
    cell(r),
    ratios.map(ratio).join(' '),
    ...(b ? [cell(b), [b.ms / f.ms, ...(b.main !== null && f.main !== null ? [b.main / f.main] : [])].map(ratio).join(' ')] : []),
  ]);
  goals.push(
    `  1. replay sent twice, ${name}: ${ratios.map(ratio).join(' (wall), ')} (main thread) the floor (goal <= ${GOAL_FLOOR}x): ${verdict(ratios, GOAL_FLOOR)}`,
  );
}
console.log(`\nReplay against the reference in process, sent twice, against its floor (parse, then three answers); wall (main thread)`);
table([['traffic', 'floor', 'replay', 'ratio', ...(beforeRoot ? [`replay ${KIT_BASELINE_COMMIT}`, 'ratio before'] : [])], ...floorRows]);

console.log('');
const reference = referenceImplementation();
const manifest = await reference.describe();
const agent = traffics[1]![1];
line('in process, reference, sent once (--once)', await rate(reference, manifest, agent, false, 1));
for (const concurrency of [1, 4]) {
  const o = await openImplementation({
    transport: 'stdio',
    config: { command: `"${process.execPath}" --import tsx "${join(root, 'test/fixtures/replay/reference-stdio.ts')}"`, processes: concurrency },
    timeoutMs: 30_000,
    concurrency,
  });
  line(`stdio, reference process, sent twice, concurrency ${concurrency}`, await rate(o.impl, o.manifest, agent, true, concurrency));
  await o.impl.close();
}

// 3: the kit's share of the CPU of a run over stdio, the middle round by share of each kit: the smallest share of a few
// rounds would be the luckiest, and a goal judged on it would pass on a draw of the machine's load.
const share = (c: StdioCpu): number => c.kitMs / (c.kitMs + c.implementationMs);
const middleOf = (measure: () => StdioCpu): StdioCpu => {
  const runs = Array.from({ length: CPU_ROUNDS }, measure).sort((a, b) => share(a) - share(b));
  return runs[Math.floor(runs.length / 2)]!;
};
const middleRun = (kitRoot: string, options: Parameters<typeof stdioRunCpu>[1] = {}): StdioCpu => middleOf(() => stdioRunCpu(kitRoot, options));
const kit = middleRun(root);
const beforeRun = beforeRoot ? middleRun(beforeRoot) : undefined;
// Where the machine sets it, the same run in the environment as it is, for comparison with numbers taken in it.
const certificates = process.env.NODE_EXTRA_CA_CERTS ? middleRun(root, { machineCertificates: true }) : undefined;
const cpuRows: [string, StdioCpu][] = [['this kit', kit]];
if (beforeRun) cpuRows.push([`the kit of ${KIT_BASELINE_COMMIT}`, beforeRun]);
if (certificates) cpuRows.push(['this kit, NODE_EXTRA_CA_CERTS as set', certificates]);
// The floor of this measure: the lines one run of this kit sent each implementation process, sent again to a fresh
// process each by a program that only writes them and parses the answers (stdio-floor.mjs). What any Node program
// pays to put the same requests to the same processes; the kit's share above it is what its own work costs.
const recorded = mkdtempSync(join(tmpdir(), 'ctxconform-lines-'));
let floor: StdioCpu;
try {
  stdioRunCpu(root, { recordLines: recorded });
  floor = middleOf(() => stdioFloorCpu(recorded));
} finally {
  rmSync(recorded, { recursive: true, force: true });
}
cpuRows.push(['the floor: its lines sent, answers parsed', floor]);
console.log(`\nCPU of \`ctxconform run --stdio\` (the corpus and the default properties) against the reference as a stdio process`);
console.log(`  (the middle of ${CPU_ROUNDS} runs by share; whole processes, start-up included; the implementation is the compiled reference,`);
console.log('  bench/reference-stdio.mjs, in as many processes as the run starts by default; "of it, starting": Node and the');
console.log('  reference loading, before their first request. NODE_EXTRA_CA_CERTS is unset for both sides: with it, every Node');
console.log('  process parses the certificate bundle as it starts, a cost of the machine that the kit pays once and the');
console.log('  implementation once per process; the floor, bench/stdio-floor.mjs, sends each implementation process of a');
console.log('  recorded run of this kit the lines it read, to a process of its own, and only parses each answer)');
table([
  ['kit', 'kit CPU', 'implementation CPU', 'processes', 'of it, starting', "kit's share"],
  ...cpuRows.map(([name, c]) => [
    name,
    secs(c.kitMs),
    secs(c.implementationMs),
    String(c.processes),
    secs(c.implementationStartMs),
    `${(share(c) * 100).toFixed(0)}%`,
  ]),
]);
goals.push(
  `  3. the kit's share of the CPU of a run over stdio: ${(share(kit) * 100).toFixed(1)}% (goal < ${GOAL_KIT_SHARE * 100}%): ${share(kit) < GOAL_KIT_SHARE ? 'met' : 'NOT met'}` +
    (beforeRun ? ` (before: ${(share(beforeRun) * 100).toFixed(1)}%)` : '') +
    (certificates ? `; with the machine's NODE_EXTRA_CA_CERTS, ${(share(certificates) * 100).toFixed(1)}%` : '') +
    `; the floor's share ${(share(floor) * 100).toFixed(1)}%, the kit's CPU ${(kit.kitMs / floor.kitMs).toFixed(2)}x the floor's`,
);

// What the share is made of: the same run shorter and longer. What a longer run adds on each side is the cost of
// the exchanges once both sides are warm; the default run's share is that plus what the kit pays once (Node, its
// modules, the corpus, V8 compiling the kit's hot code on helper threads) against what each implementation process does.
const LENGTHS: [string, string[]][] = [
  ['the corpus alone (--properties 0)', ['--properties', '0']],
  ['the default (100 runs per property)', []],
  ['--properties 400', ['--properties', '400']],
];
const byLength = LENGTHS.map(([name, args]): [string, StdioCpu] => [name, args.length === 0 ? kit : middleRun(root, { args })]);
console.log(`\nThe same run of this kit, shorter and longer (the middle of ${CPU_ROUNDS} runs each)`);
table([
  ['run', 'kit CPU', 'implementation CPU', "kit's share"],
  ...byLength.map(([name, c]) => [name, secs(c.kitMs), secs(c.implementationMs), `${(share(c) * 100).toFixed(0)}%`]),
]);
const [, usual] = byLength[1]!;
const [, longer] = byLength[2]!;
const addedKit = longer.kitMs - usual.kitMs;
const addedImplementation = longer.implementationMs - usual.implementationMs;
console.log(
  `  from 100 to 400 runs per property the kit adds ${secs(addedKit)} and the implementation ${secs(addedImplementation)}:` +
    ` the kit's share of what the longer run adds is ${((100 * addedKit) / (addedKit + addedImplementation)).toFixed(0)}%`,
);
if ('dispose' in before) before.dispose();

if (!existsSync('/proc/self/status')) line('peak memory', 'n/a: needs /proc (Linux)');
else {
  console.log('');
  for (const count of [sized(100_000), sized(1_000_000)]) {
    const file = await traffic('agent', count, AGENT_TRAFFIC);
    const { peakKiB, summary } = await peakOfCommand(['replay', file, '--quiet']);
    line(
      `replay ${count.toLocaleString('en-US')} requests (child process)`,
      `peak RSS ${peakKiB === undefined ? 'n/a' : mib(peakKiB * 1024)}; ${summary.replace(/^PASS: \d+ pass, 0 fail, 0 error, 0 timeout, 0 crash, 0 skip of /, '')}`,
    );
    rmSync(file, { force: true });
  }
}
console.log('\nGoals:');
for (const g of goals) console.log(g);
rmSync(tmp, { recursive: true, force: true });
