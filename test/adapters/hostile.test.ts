/**
 * Issue 36's hostile peers through the command line (test/hostile-scenarios.ts):
 * each run ends within its stated time and the kit's peak memory within its
 * stated bound, with every report written and nothing the implementation
 * started left running. bench/hostile.ts prints the same numbers.
 */
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli.js';
import { SCENARIOS, play } from '../hostile-scenarios.js';
import type { Scenario } from '../hostile-scenarios.js';
import { UNEXPECTED_ANSWERS_ID } from '../../running/run.js';

const scenario = (name: string): Scenario => {
  const s = SCENARIOS.find((x) => x.name.startsWith(name));
  if (!s) throw new Error(`no scenario ${name} in test/hostile-scenarios.ts`);
  return s;
};

/** Played, and held to the scenario's bounds: within its time, its memory, nothing left running. */
async function bounded(name: string): Promise<Awaited<ReturnType<typeof play>>> {
  const s = scenario(name);
  const r = await play(s);
  expect(r.hung, `${s.name} did not end within ${s.limitMs} ms\n${r.stdout}\n${r.stderr}`).toBe(false);
  expect(r.ms).toBeLessThan(s.limitMs);
  expect(r.peakMiB, 'the kit exited normally and counted its peak').toBeDefined();
  expect(r.peakMiB!).toBeLessThan(s.limitMiB);
  expect(r.leftRunning ?? []).toEqual([]);
  return r;
}

const slack = (name: string): number => scenario(name).limitMs + 15_000;

describe(`hostile peers end in bounded time and memory (run from ${ROOT})`, () => {
  it(
    'stdio: a grandchild in its own session holding stdout and stderr: the run exits with its verdict, the grandchild is ended',
    async () => {
      const r = await bounded('stdio: a grandchild');
      expect(r.status).toBe(0);
      expect(r.reports).toHaveLength(5);
      expect(r.report!.summary.pass).toBeGreaterThan(0);
    },
    slack('stdio: a grandchild'),
  );

  it(
    'stdio: SIGTERM mid-run: exit 143 with the reports, and the grandchildren in their own sessions are ended',
    async () => {
      const r = await bounded('stdio: SIGTERM');
      expect(r.status).toBe(143);
      expect(r.reports).toHaveLength(5);
      expect(r.report!.run?.interrupted).toBe('SIGTERM');
    },
    slack('stdio: SIGTERM'),
  );

  it(
    'http: a body trickling one byte every 900 ms is a timeout at --timeout 1000, not a run that never ends',
    async () => {
      const r = await bounded('http: one body byte');
      expect(r.status).toBe(1);
      expect(r.reports).toHaveLength(5);
      const sent = r.report!.cases.filter((c) => c.status !== 'skip');
      expect(sent.length).toBeGreaterThan(0);
      for (const c of sent) {
        expect(c.status).toBe('timeout');
        expect(c.message).toMatch(/was not complete within 1000 ms/);
      }
    },
    slack('http: one body byte'),
  );

  it(
    'stdio: a line that never ends on every third request: refused past 16 MiB each time, the kit stays within its bound',
    async () => {
      const r = await bounded('stdio: a 64 MiB line');
      expect(r.status).toBe(1);
      expect(r.reports).toHaveLength(5);
      const refused = r.report!.cases.filter((c) => c.status === 'error');
      // Every third request of each process: enough refusals that a buffer kept from each would pass the bound.
      expect(refused.length).toBeGreaterThanOrEqual(8);
      for (const c of refused) expect(c.message).toMatch(/answer line longer than 16777216 bytes/);
      expect(r.report!.cases.filter((c) => c.status === 'pass').length).toBeGreaterThan(refused.length);
    },
    slack('stdio: a 64 MiB line'),
  );

  it(
    'stdio: every answer sent twice: an error of the run naming the doubled lines, every case still judged on its first answer',
    async () => {
      const r = await bounded('stdio: every answer sent twice');
      expect(r.status).toBe(1);
      expect(r.reports).toHaveLength(5);
      const run = r.report!.cases.find((c) => c.id === UNEXPECTED_ANSWERS_ID);
      expect(run).toMatchObject({ status: 'error', requirements: ['PROTO-3'] });
      const cases = r.report!.cases.filter((c) => c.id !== UNEXPECTED_ANSWERS_ID && c.status !== 'skip');
      expect(run!.message).toMatch(new RegExp(`^${cases.length} answer lines answered a request already answered`));
      expect(cases.every((c) => c.status === 'pass')).toBe(true);
      expect(r.stdout).toContain(UNEXPECTED_ANSWERS_ID);
    },
    slack('stdio: every answer sent twice'),
  );

  it(
    'module: an assemble that never resolves is a timeout of each case',
    async () => {
      const r = await bounded('module: assemble never resolves');
      expect(r.status).toBe(1);
      expect(r.reports).toHaveLength(5);
      expect(r.report!.summary.timeout).toBeGreaterThan(0);
      expect(r.report!.summary.timeout).toBe(r.report!.summary.total - r.report!.summary.skip);
    },
    slack('module: assemble never resolves'),
  );

  it(
    'module: an assemble that busy-loops is a timeout of each case (the thread is terminated)',
    async () => {
      const r = await bounded('module: assemble busy-loops');
      expect(r.status).toBe(1);
      expect(r.reports).toHaveLength(5);
      expect(r.report!.summary.timeout).toBe(r.report!.summary.total - r.report!.summary.skip);
    },
    slack('module: assemble busy-loops'),
  );

  it(
    'module: a module that busy-loops while loading cannot start: exit 2 naming the load deadline',
    async () => {
      const r = await bounded('module: busy-loops while loading');
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/did not finish loading within 30500 ms/);
    },
    slack('module: busy-loops while loading'),
  );
});
