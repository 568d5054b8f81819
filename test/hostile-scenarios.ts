/**
 * The hostile peers of issue 36 that end a run or bound its memory, each as
 * the command line a caller runs: the test (test/adapters/hostile.test.ts)
 * holds each to its stated time and peak memory, bench/hostile.ts prints
 * the numbers. Every run writes all five reports into its own folder.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';
import { alive, runHostile } from './hostile-run.js';
import type { HostileRun } from './hostile-run.js';
import type { Report } from '../protocol/types.js';

const node = `"${process.execPath}"`;
const fixture = (name: string): string => `"${join(ROOT, 'dist/test/fixtures', name)}.js"`;

export const REPORTS = ['report.json', 'r.xml', 'r.md', 'r.html', 'r.svg'] as const;

export interface Scenario {
  name: string;
  /** What the run must stay within, once the kit holds its peers to their deadlines. */
  limitMs: number;
  limitMiB: number;
  run(dir: string, limitMs: number): Promise<HostileRun & { leftRunning?: number[] }>;
}

function reportArgs(dir: string): string[] {
  return [
    '--quiet',
    '--json',
    join(dir, 'report.json'),
    '--junit',
    join(dir, 'r.xml'),
    '--markdown',
    join(dir, 'r.md'),
    '--html',
    join(dir, 'r.html'),
    '--badge',
    join(dir, 'r.svg'),
  ];
}

/** The process ids a hostile command wrote to `file`, one a line. */
function pidsIn(file: string): number[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

function killAll(pids: number[]): void {
  for (const pid of pids)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
}

/** SIGTERM to the kit a second after its implementation started (its grandchild wrote its pid): the run is then under way. */
function signalOnceRunning(kit: number, pids: string): void {
  const poll = setInterval(() => {
    if (!existsSync(pids)) return;
    clearInterval(poll);
    setTimeout(() => {
      try {
        process.kill(kit, 'SIGTERM');
      } catch {
        // it ended already
      }
    }, 1000);
  }, 50);
  setTimeout(() => clearInterval(poll), 30_000).unref();
}

/** `setsid sleep 300` left holding the implementation's stdout and stderr, its pid written to `pids`. */
const grandchild = (pids: string, then: string): string => `setsid sh -c 'echo $$ >> "${pids}"; exec sleep 300' </dev/null & exec ${then}`;

export const SCENARIOS: Scenario[] = [
  {
    name: 'stdio: a grandchild in its own session holds the pipes',
    limitMs: 15_000,
    limitMiB: 200,
    async run(dir, limitMs) {
      const pids = join(dir, 'pids');
      const r = await runHostile(
        ['run', '--stdio', grandchild(pids, `${node} ${fixture('hostile/reference')}`), '--properties', '0', '--filter', 'area:tiers', ...reportArgs(dir)],
        { limitMs },
      );
      const left = pidsIn(pids).filter(alive);
      killAll(left);
      return { ...r, leftRunning: left };
    },
  },
  {
    name: 'stdio: SIGTERM mid-run with grandchildren in their own session',
    limitMs: 10_000,
    limitMiB: 200,
    async run(dir, limitMs) {
      const pids = join(dir, 'pids');
      const r = await runHostile(
        [
          'run',
          '--stdio',
          grandchild(pids, `${node} ${fixture('faulty/hang')}`),
          '--timeout',
          '60000',
          '--properties',
          '0',
          '--filter',
          'area:tiers',
          ...reportArgs(dir),
        ],
        { limitMs, started: (pid) => signalOnceRunning(pid, pids) },
      );
      // What the kit ended has had a moment to be reaped.
      await new Promise((res) => setTimeout(res, 300));
      const left = pidsIn(pids).filter(alive);
      killAll(left);
      return { ...r, leftRunning: left };
    },
  },
  {
    name: 'http: one body byte every 900 ms, --timeout 1000',
    limitMs: 20_000,
    limitMiB: 200,
    async run(dir, limitMs) {
      const server = spawn(process.execPath, [join(ROOT, 'dist/test/fixtures/hostile/trickle-server.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        const port = await new Promise<string>((res) => server.stdout.once('data', (d: Buffer) => res(d.toString('utf8').trim())));
        return await runHostile(
          ['run', '--http', `http://127.0.0.1:${port}`, '--timeout', '1000', '--properties', '0', '--filter', 'area:overflow', ...reportArgs(dir)],
          { limitMs },
        );
      } finally {
        server.kill('SIGKILL');
      }
    },
  },
  {
    name: 'stdio: a 64 MiB line without a newline every third request (one process)',
    limitMs: 60_000,
    limitMiB: 150,
    run: (dir, limitMs) =>
      runHostile(
        [
          'run',
          '--stdio',
          `${node} ${fixture('hostile/endless-line')}`,
          '--processes',
          '1',
          '--properties',
          '0',
          '--filter',
          'area:tiers,area:starvation',
          ...reportArgs(dir),
        ],
        {
          limitMs,
          env: { LINE_MIB: '64' },
        },
      ),
  },
  {
    name: 'stdio: every answer sent twice',
    limitMs: 30_000,
    limitMiB: 200,
    run: (dir, limitMs) =>
      runHostile(['run', '--stdio', `${node} ${fixture('hostile/doubled-answer')}`, '--concurrency', '1', '--properties', '0', ...reportArgs(dir)], {
        limitMs,
      }),
  },
  {
    name: 'module: assemble never resolves, --timeout 500',
    limitMs: 20_000,
    limitMiB: 200,
    run: (dir, limitMs) =>
      runHostile(
        [
          'run',
          '--module',
          join(ROOT, 'dist/test/fixtures/hostile/never-resolves.js'),
          '--timeout',
          '500',
          '--properties',
          '0',
          '--filter',
          'area:overflow',
          ...reportArgs(dir),
        ],
        { limitMs },
      ),
  },
  {
    name: 'module: assemble busy-loops, --timeout 500',
    limitMs: 20_000,
    limitMiB: 200,
    run: (dir, limitMs) =>
      runHostile(
        [
          'run',
          '--module',
          join(ROOT, 'dist/test/fixtures/hostile/busy-loop.js'),
          '--timeout',
          '500',
          '--properties',
          '0',
          '--filter',
          'area:overflow',
          ...reportArgs(dir),
        ],
        { limitMs },
      ),
  },
  {
    name: 'module: busy-loops while loading, --timeout 500',
    limitMs: 45_000,
    limitMiB: 200,
    run: (dir, limitMs) =>
      runHostile(
        [
          'run',
          '--module',
          join(ROOT, 'dist/test/fixtures/hostile/busy-at-load.js'),
          '--timeout',
          '500',
          '--properties',
          '0',
          '--filter',
          'area:overflow',
          ...reportArgs(dir),
        ],
        { limitMs },
      ),
  },
];

/** A scenario in a fresh folder: the run, and which of the five reports it wrote. */
export async function play(s: Scenario, limitMs = s.limitMs): Promise<HostileRun & { leftRunning?: number[]; reports: string[]; report?: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-hostile-'));
  try {
    const r = await s.run(dir, limitMs);
    const json = join(dir, 'report.json');
    return {
      ...r,
      reports: REPORTS.filter((f) => existsSync(join(dir, f))),
      ...(existsSync(json) ? { report: JSON.parse(readFileSync(json, 'utf8')) as Report } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
