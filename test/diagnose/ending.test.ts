/**
 * What a run keeps for its diagnosis and what the ending makes of it, in
 * process: the observation log (all of a run's results; a bounded, order-free
 * sample of a replay's), the likely-cause block, and the `diagnosis` member
 * through the report schema, `merge` (which drops it) and `diff` (which reads
 * reports that have it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions, openModule } from '../../adapters/inprocess.js';
import { diffReports } from '../../cli/diff.js';
import { mergeReports } from '../../cli/merge.js';
import { readReport } from '../../judging/baseline.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { ObservationLog } from '../../diagnosis/index.js';
import type { Diagnosis, Observation } from '../../diagnosis/index.js';
import { replay } from '../../traffic/replay/run.js';
import { likelyCause, likelyCauseText } from '../../running/likely-cause.js';
import { runSuite } from '../../running/run.js';
import type { Implementation, Manifest, Report } from '../../protocol/types.js';
import { FAILING, resultsOf } from '../../protocol/types.js';
import { mutant } from '../fixtures/broken/mutant.js';

const BROKEN = fileURLToPath(new URL('../fixtures/broken/', import.meta.url));
const CORE_CASES = loadCorpus().cases.filter((c) => c.profile === 'tiered' && c.capabilities.length === 0);
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-ending-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The core cases, no property, one at a time, keeping the observations in `log`. */
const runCore = (impl: Implementation, manifest: Manifest, log: ObservationLog, shard?: { index: number; total: number }): Promise<Report> =>
  runSuite({ cases: CORE_CASES, impl, manifest, timeoutMs: 5000, concurrency: 1, properties: 0, seed: 1, observations: log, ...(shard ? { shard } : {}) });

const observation = (id: string, passed: boolean): Observation => ({
  id,
  request: { id },
  manifest: { capabilities: [] },
  outcome: { kind: 'result', value: {} },
  passed,
});

describe('the observation log', () => {
  it('keeps every observation when unbounded, in the order they came', () => {
    const log = new ObservationLog();
    for (let i = 0; i < 50; i++) log.add(observation(`c${i}`, i % 3 !== 0));
    expect(log.observations().map((o) => o.id)).toEqual(Array.from({ length: 50 }, (_, i) => `c${i}`));
    expect(log.seen).toEqual({ failing: 17, passing: 33, keptFailing: 17, keptPassing: 33 });
  });

  it('bounded, keeps the first failures by order and the same sample of passing ones whatever order they arrive in', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => i);
    const fill = (order: number[]): ObservationLog => {
      const log = new ObservationLog({ failing: 10, passing: 25 });
      for (const i of order) log.add(observation(`line ${i}`, i % 10 !== 0), [0, i]);
      return log;
    };
    const forward = fill(ids);
    const shuffled = fill(ids.slice().sort((a, b) => ((a * 7919) % 2003) - ((b * 7919) % 2003)));
    expect(forward.seen).toEqual({ failing: 200, passing: 1800, keptFailing: 10, keptPassing: 25 });
    expect(
      forward
        .observations()
        .filter((o) => !o.passed)
        .map((o) => o.id),
    ).toEqual(Array.from({ length: 10 }, (_, k) => `line ${k * 10}`));
    expect(shuffled.observations().map((o) => o.id)).toEqual(forward.observations().map((o) => o.id));
    // A sample, not the first passing lines.
    const passing = forward
      .observations()
      .filter((o) => o.passed)
      .map((o) => Number(o.id.slice(5)));
    expect(Math.max(...passing)).toBeGreaterThan(1000);
  });

  it('a replay keeps no more than its bound, and counts every request', async () => {
    const file = join(tmp, 'many.jsonl');
    const requests = CORE_CASES.filter((c) => !JSON.stringify(c.request).includes('null')).map((c) => JSON.stringify(c.request));
    writeFileSync(file, [...requests, ...requests, ...requests].join('\n') + '\n');
    const impl = await openModule(join(BROKEN, 'remainder-in-pool.ts'));
    const log = new ObservationLog({ failing: 8, passing: 20 });
    const report = await replay({
      sources: [{ path: file, label: 'many.jsonl' }],
      impl,
      manifest: await impl.describe(),
      timeoutMs: 5000,
      concurrency: 4,
      twice: false,
      shrink: 0,
      maxListed: 1000,
      observations: log,
    });
    const failing = report.summary.fail + report.summary.error;
    expect(failing).toBeGreaterThan(8);
    expect(log.seen).toMatchObject({ failing, keptFailing: 8, keptPassing: 20 });
    expect(log.observations()).toHaveLength(28);
    const cause = await likelyCause(report, log);
    const top = cause?.report.diagnosis?.[0];
    expect(top).toMatchObject({ explains: 8, failing: 8, contradicts: 0 });
    // Eight failures may not tell the remainder in the pool from rounded tier budgets: then the block says so.
    expect([top!.id, ...(top!.alike ?? [])]).toContain('remainder-in-pool');
    expect(cause?.text).toContain(`(read from the first 8 of ${failing} failing results and a sample of 20 of ${log.seen.passing} passing ones)`);
  });
});

describe('the likely-cause block', () => {
  const d: Diagnosis = {
    failing: 5,
    causes: [
      {
        id: 'a+b',
        defects: ['a', 'b'],
        requirements: ['TIER-6', 'EXP-1'],
        summary: 'one; and two',
        explains: 3,
        contradicts: 2,
        failing: 5,
        explained: ['x', 'y', 'z'],
        contradicted: ['p', 'q'],
        alike: [],
      },
      {
        id: 'c',
        defects: ['c'],
        requirements: ['NUM-1'],
        summary: 'three',
        explains: 1,
        contradicts: 0,
        failing: 5,
        explained: ['w'],
        contradicted: [],
        alike: ['d'],
      },
    ],
    unexplained: ['\ue000'],
  };

  it('gives each cause on a line, the ones it cannot be told from, then what no cause explains, invisible characters escaped', () => {
    expect(likelyCauseText(d).split('\n')).toEqual([
      'likely cause (known defects whose model answers exactly as the implementation did; docs/diagnosis.md):',
      '  a + b [TIER-6, EXP-1]: one; and two — explains 3 of 5 failures, contradicts 2 (p, q)',
      '  c [NUM-1]: three — explains 1 of 5 failures, contradicts none',
      '      this run cannot tell it from: d',
      '  not explained by these (1): \\ue000',
    ]);
  });

  it('puts the broken principles first when the first known defect explains most failures only before what it contradicts is taken off', () => {
    const principles = [
      'broken principles, whatever the design (SPEC section 18):',
      '  blocks are dropped without being named (ANY-3): explains 5 of 5 failures',
    ];
    // a + b explains 3 of 5 and contradicts 2 passing answers: 1 of 5 net, no lead.
    const lines = likelyCauseText(d, undefined, principles).split('\n');
    expect(lines[0]).toBe('likely cause (no known defect explains most of the 5 failures; docs/diagnosis.md):');
    expect(lines[1]).toBe(`  ${principles[0]}`);
    // Without its contradictions the same cause leads, the principles after it.
    const clean = { ...d, causes: [{ ...d.causes[0]!, contradicts: 0, contradicted: [] }, ...d.causes.slice(1)] };
    expect(likelyCauseText(clean, undefined, principles).split('\n')[1]).toBe(
      '  a + b [TIER-6, EXP-1]: one; and two — explains 3 of 5 failures, contradicts none',
    );
  });

  it('says so when no known defect reproduces the failures', () => {
    expect(likelyCauseText({ failing: 2, causes: [], unexplained: ['x', 'y'] })).toBe(
      'likely cause: none of the known defects reproduces the failing answers exactly (2 failures; docs/diagnosis.md)',
    );
  });
});

describe('reports with a diagnosis', () => {
  async function shard(index: number): Promise<Report> {
    const impl = await openModule(join(BROKEN, 'remainder-in-pool.ts'));
    const log = new ObservationLog();
    const report = await runCore(impl, await impl.describe(), log, { index, total: 2 });
    return (await likelyCause(report, log))!.report;
  }

  it("are valid reports; merge drops the shards' diagnoses, diff reads them as any report", async () => {
    const [a, b] = [await shard(1), await shard(2)];
    for (const [i, r] of [a, b].entries()) {
      const top = r.diagnosis![0]!;
      expect([top.id, ...(top.alike ?? [])]).toContain('remainder-in-pool');
      const file = join(tmp, `shard-${i}.json`);
      writeFileSync(file, JSON.stringify(r));
      expect(readReport(file).diagnosis).toEqual(r.diagnosis);
    }
    const merged = mergeReports([
      { file: 'a.json', report: a },
      { file: 'b.json', report: b },
    ]);
    expect(merged).not.toHaveProperty('diagnosis');
    expect(merged.summary.fail).toBe(a.summary.fail + b.summary.fail);
    const d = diffReports(a, { ...a, diagnosis: [] });
    expect(d.unchanged).toBe(a.cases.length);
    expect(diffReports(merged, a).removed.length).toBe(b.cases.length);
  });

  it('names the failures no known defect explains', async () => {
    // The remainder in the pool, and a slip no catalogue entry knows: the context reversed at budget 7.
    const pooled = mutant({ remainderInPool: true });
    const manifest = { name: 'two-slips', version: '0', profiles: ['tiered'], capabilities: [] };
    const impl = fromFunctions(
      (req) => {
        const out = pooled(req) as Record<string, unknown>;
        const budget = (req as { budget?: unknown } | null)?.budget;
        return budget === 7 && typeof out.context === 'string' && out.context.length > 1 ? { ...out, context: [...out.context].reverse().join('') } : out;
      },
      () => manifest,
    );
    const log = new ObservationLog();
    const report = await runCore(impl, manifest, log);
    const reversed = resultsOf(report.cases, 'case')
      .filter((c) => FAILING.has(c.status) && (c.request as { budget?: unknown } | null)?.budget === 7)
      .map((c) => c.id);
    expect(reversed.length).toBeGreaterThan(0);
    const cause = (await likelyCause(report, log))!;
    expect(cause.diagnosis.causes.map((c) => c.id)).toEqual(['remainder-in-pool']);
    expect(cause.diagnosis.unexplained).toEqual(reversed);
    expect(cause.text).toContain(`\n  not explained by these (${reversed.length}): ${reversed.join(', ')}`);
  });

  it('a run that fails nothing has none', async () => {
    const impl = await openModule(join(BROKEN, 'correct.ts'));
    const log = new ObservationLog();
    const report = await runCore(impl, await impl.describe(), log);
    expect(report.cases.filter((c) => FAILING.has(c.status))).toEqual([]);
    expect(log.seen.passing).toBeGreaterThan(100);
    expect(await likelyCause(report, log)).toBeUndefined();
  });
});
