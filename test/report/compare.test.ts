/** Baselines, `diff` and `merge`: the semantics CI gates on. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { applyBaseline, loadBaseline, ReportFileError } from '../../judging/baseline.js';
import { diffReports, run as runDiff } from '../../cli/diff.js';
import { UsageError } from '../../cli/usage.js';
import { mergeReports, MergeError } from '../../cli/merge.js';
import { runSuite } from '../../running/run.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import type { Report } from '../../protocol/types.js';
import { verdict } from '../../protocol/verdict.js';
import { cli } from '../cli.js';
import { assemble as brokenAssemble, describe as brokenDescribe } from '../fixtures/reports/broken-impl.js';
import { brokenRun, corpusCases, fixtureCases, referenceRun } from '../fixtures/reports/build.js';

let dir: string;
let reference: Report;
let broken: Report;
const write = (name: string, value: unknown): string => {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(value));
  return f;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ctxc-compare-'));
  reference = await referenceRun(fixtureCases());
  broken = await brokenRun(fixtureCases());
});

describe('baseline', () => {
  it('reads an id -> status map or the failing cases of a previous report', () => {
    expect(loadBaseline(write('map.json', { 'render/two-sources': 'fail' }))).toEqual({ 'render/two-sources': 'fail' });
    expect(loadBaseline(write('prev.json', broken))).toEqual({
      'budget/tiny': 'crash',
      'capabilities/pinned-first': 'fail',
      'hostile/markup-ids': 'fail',
      'render/two-sources': 'fail',
    });
    expect(() => loadBaseline(write('bad.json', { 'a/b': 'pass' }))).toThrow(
      /bad\.json: \/a~1b: expected status must be one of fail, error, timeout, crash, flaky, got "pass"/,
    );
    expect(() => loadBaseline(write('arr.json', ['a']))).toThrow(ReportFileError);
    expect(() => loadBaseline(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read/);
  });

  it('excuses known failures with the expected status; a changed status is unexpected', () => {
    const file = write('known.json', {
      'budget/tiny': 'crash',
      'capabilities/pinned-first': 'fail',
      'hostile/markup-ids': 'fail',
      'render/two-sources': 'crash',
    });
    const { report, unexpected, stale } = applyBaseline(broken, file);
    expect(unexpected.map((c) => c.id)).toEqual(['render/two-sources']);
    expect(stale).toEqual([]);
    // Bare statuses carry no defect key: they match by status alone, and say so (unkeyed).
    expect(report.baseline).toEqual({
      file,
      known: ['budget/tiny', 'capabilities/pinned-first', 'hostile/markup-ids'],
      stale: [],
      unkeyed: ['budget/tiny', 'capabilities/pinned-first', 'hostile/markup-ids'],
    });
    expect(verdict(report).passed).toBe(false);
    expect(broken.baseline).toBeUndefined();
  });

  it('passes when every failure is known, and fails on a stale expectation (the baseline can only shrink)', () => {
    const all = applyBaseline(broken, write('prev2.json', broken));
    expect(all.unexpected).toEqual([]);
    expect(verdict(all.report).passed).toBe(true);
    // The reference passes every case the broken run failed: each baseline id is stale.
    const fixed = applyBaseline(reference, write('prev3.json', broken));
    expect(fixed.stale).toEqual(['budget/tiny', 'capabilities/pinned-first', 'hostile/markup-ids', 'render/two-sources']);
    expect(verdict(fixed.report).passed).toBe(false);
    // Ids the run did not include (another shard, a filter) are neither known nor stale.
    const other = applyBaseline(reference, write('other.json', { 'not/in-run': 'fail' }));
    expect([other.stale, other.unexpected, other.report.baseline!.known]).toEqual([[], [], []]);
  });
});

describe('diff', () => {
  it('classifies fixed, regressed, changed, new and removed cases', () => {
    const before: Report = { ...broken, cases: broken.cases.filter((c) => c.id !== 'errors/negative-budget') };
    const after: Report = {
      ...reference,
      cases: reference.cases
        .filter((c) => c.id !== 'expiry/expired-first')
        .map((c) => (c.id === 'ranked/one-line' ? { ...c, status: 'skip' as const, message: 'profile ranked is not declared' } : c))
        .map((c) => (c.id === 'budget/tiny' ? { ...c, status: 'timeout' as const, message: 'no answer' } : c))
        .map((c) => (c.id === 'budget/per-block-cut' ? { ...c, status: 'fail' as const, message: 'boom' } : c)),
    };
    const d = diffReports(before, after);
    expect(d.fixed.map((c) => c.id)).toEqual(['capabilities/pinned-first', 'hostile/markup-ids', 'render/two-sources']);
    expect(d.regressed).toEqual([
      { id: 'budget/per-block-cut', from: 'pass', to: 'fail', message: 'boom' },
      { id: 'ranked/one-line', from: 'pass', to: 'skip', message: 'profile ranked is not declared' },
    ]);
    expect(d.changed).toEqual([{ id: 'budget/tiny', from: 'crash', to: 'timeout', message: 'no answer' }]);
    expect(d.added).toEqual([{ id: 'errors/negative-budget', status: 'pass' }]);
    expect(d.removed).toEqual([{ id: 'expiry/expired-first', status: 'pass' }]);
    expect(d.unchanged).toBe(0);
  });

  it('exits 1 on a regression, 0 otherwise, 2 on a bad file; --json prints the comparison', async () => {
    const good = write('good.json', reference);
    const bad = write('bad-run.json', broken);
    const regress = cli('diff', good, bad);
    expect(regress.status).toBe(1);
    expect(regress.stdout).toContain('regressed (4):');
    expect(regress.stdout).toContain('  render/two-sources  pass -> fail: included: expected ["b-1","b-2"], got ["b-2","b-1"]');
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((x: unknown) => void printed.push(String(x)));
    try {
      expect(await runDiff([bad, good, '--json'])).toBe(0);
      expect(JSON.parse(printed.join('\n')).fixed).toHaveLength(4);
      printed.length = 0;
      expect(await runDiff([bad, good])).toBe(0);
      expect(printed.join('\n')).toMatch(/fixed \(4\):\n {2}budget\/tiny {2}crash -> pass\n/);
      expect(printed.join('\n')).toContain('0 regressed, 4 fixed, 0 changed, 0 new, 0 removed, 4 unchanged');
    } finally {
      log.mockRestore();
    }
    const junk = write('junk.json', { not: 'a report' });
    await expect(runDiff([good, junk])).rejects.toThrow(/junk\.json: not a ctxconform JSON report/);
    await expect(runDiff([good])).rejects.toThrow(UsageError);
  });
});

describe('merge', () => {
  let cases: GoldenCase[];
  const impl = () => fromFunctions(brokenAssemble, brokenDescribe);
  const shardRun = async (index: number, total: number): Promise<Report> =>
    runSuite({
      cases,
      impl: impl(),
      manifest: brokenDescribe(),
      timeoutMs: 10_000,
      concurrency: 1,
      properties: 0,
      seed: 3,
      adapter: 'module',
      ...(total > 0 ? { shard: { index, total } } : {}),
    });

  beforeAll(() => {
    cases = [...corpusCases(), ...fixtureCases()];
  });

  it('joins shards into the report of an unsharded run', async () => {
    const whole = await shardRun(0, 0);
    const shards = await Promise.all([1, 2, 3].map((i) => shardRun(i, 3)));
    const merged = mergeReports(shards.map((report, i) => ({ file: `s${i + 1}.json`, report })).reverse());
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.cases.map((c) => [c.id, c.status, c.message])).toEqual(whole.cases.map((c) => [c.id, c.status, c.message]));
    expect(merged.run?.shard).toBeNull();
    expect(whole.summary.fail).toBeGreaterThan(0);
  });

  it('refuses other implementations or kit versions, duplicate ids and incomplete shard sets', async () => {
    const [a, b] = await Promise.all([shardRun(1, 2), shardRun(2, 2)]);
    const other = { ...b, implementation: { ...b.implementation, version: '9.9.9' } };
    expect(() =>
      mergeReports([
        { file: 'a.json', report: a },
        { file: 'b.json', report: other },
      ]),
    ).toThrow(/b\.json is a run of broken-reverse 9\.9\.9 .*a\.json of broken-reverse 0\.0\.1/);
    const kit = { ...b, kit: { ...b.kit, version: '0.0.0' } };
    expect(() =>
      mergeReports([
        { file: 'a.json', report: a },
        { file: 'b.json', report: kit },
      ]),
    ).toThrow(/merge reports of one kit version/);
    expect(() =>
      mergeReports([
        { file: 'a.json', report: a },
        { file: 'a2.json', report: a },
      ]),
    ).toThrow(/is in both a\.json and a2\.json/);
    expect(() => mergeReports([{ file: 'a.json', report: a }])).toThrow(/missing shard 2\/2/);
    expect(mergeReports([{ file: 'a.json', report: a }], { allowPartial: true }).summary.total).toBe(a.cases.length);
    const sweep = { ...a, sweep: {} } as unknown as Report;
    expect(() => mergeReports([{ file: 'sweep.json', report: sweep }], { allowPartial: true })).toThrow(/sweep\.json is a sweep/);
    expect(() =>
      mergeReports([
        { file: 'a.json', report: a },
        { file: 'sweep.json', report: sweep },
      ]),
    ).toThrow(/sweep\.json is a sweep/);
    expect(() => mergeReports([])).toThrow(MergeError);
  });

  it('works from the command line and writes the other formats too', async () => {
    const files = await Promise.all([1, 2].map(async (i) => write(`shard${i}.json`, await shardRun(i, 2))));
    const out = join(dir, 'merged', 'all.json');
    const merge = cli('merge', ...files, '-o', out, '--junit', join(dir, 'merged', 'all.xml'));
    expect(merge.status, merge.stderr).toBe(0);
    const stdout = merge.stdout;
    const merged = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(merged.summary.total).toBe(cases.length);
    expect(stdout).toContain(`merged 2 reports: ${cases.length} cases`);
    expect(readFileSync(join(dir, 'merged', 'all.xml'), 'utf8')).toContain(`<testsuites name="ctxconform`);
    const refused = cli('merge', files[0]!, files[0]!, '-o', out);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/ctxconform merge: case .* is in both/);
  });
});
