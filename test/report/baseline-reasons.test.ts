/**
 * Baselines with reasons (kind, reason, link), `ctxconform baseline --write`,
 * and how every writer shows deviations by design apart from known bugs.
 * Also the `flaky` status in each writer, in merge and diff, and reports of
 * kits before it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyBaseline, formatBaseline, loadBaselineEntries, readReport, ReportFileError, updateBaseline } from '../../judging/baseline.js';
import { diffReports } from '../../cli/diff.js';
import { mergeReports } from '../../cli/merge.js';
import { summaryTable } from '../../running/console.js';
import { validators } from '../../protocol/schemas.js';
import { resultsOf, summarize } from '../../protocol/types.js';
import type { CaseResult, Report } from '../../protocol/types.js';
import { badgeData } from '../../report/badge.js';
import { renderHtml } from '../../report/html.js';
import { renderJunit } from '../../report/junit.js';
import { renderMarkdown } from '../../report/markdown.js';
import { verdictLine } from '../../report/text.js';
import { verdict } from '../../protocol/verdict.js';
import { cli, ROOT } from '../cli.js';
import { brokenRun, fixtureCases, referenceRun } from '../fixtures/reports/build.js';

let dir: string;
let broken: Report;
let reference: Report;
const write = (name: string, value: unknown): string => {
  const f = join(dir, name);
  writeFileSync(f, typeof value === 'string' ? value : JSON.stringify(value));
  return f;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ctxc-baseline-'));
  // Failing in the broken run: budget/tiny (crash), capabilities/pinned-first, hostile/markup-ids, render/two-sources (fail).
  broken = await brokenRun(fixtureCases());
  reference = await referenceRun(fixtureCases());
});

const WHY = 'we render by priority within a source, deliberately';
const DESIGNED = {
  $schema: 'node_modules/ctxconform/protocol/schemas/baseline.schema.json',
  'budget/tiny': 'crash',
  'render/two-sources': { status: 'fail', kind: 'by-design', reason: WHY, link: 'https://example.com/adr/7' },
  'hostile/markup-ids': { status: 'fail', reason: 'escaping bug', link: 'https://example.com/issues/12' },
  'capabilities/pinned-first': { status: 'fail' },
};

/** A golden case's key: the members its expected and actual values name (the differing members). */
const caseKey = (id: string): { members: string[] } => {
  const c = resultsOf(broken.cases, 'case').find((x) => x.id === id)!;
  const names = (v: unknown): string[] => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.keys(v) : []);
  return { members: [...new Set([...names(c.expected), ...names(c.actual)])].sort() };
};

describe('baseline entries', () => {
  it('reads bare statuses and entries with kind, reason and link (kind defaults to bug), and skips $schema', () => {
    expect(loadBaselineEntries(write('designed.json', DESIGNED))).toEqual({
      'budget/tiny': { status: 'crash', kind: 'bug' },
      'render/two-sources': { status: 'fail', kind: 'by-design', reason: WHY, link: 'https://example.com/adr/7' },
      'hostile/markup-ids': { status: 'fail', kind: 'bug', reason: 'escaping bug', link: 'https://example.com/issues/12' },
      'capabilities/pinned-first': { status: 'fail', kind: 'bug' },
    });
  });

  it('names the file and the member of a bad entry', () => {
    const bad = (value: unknown) => () => loadBaselineEntries(write('bad.json', value));
    expect(bad({ 'a/b': { status: 'pass' } })).toThrow(
      /bad\.json: \/a~1b\/status: expected status must be one of fail, error, timeout, crash, flaky, got "pass"/,
    );
    expect(bad({ 'a/b': { status: 'fail', kind: 'wontfix' } })).toThrow(/\/a~1b\/kind: must be "bug" or "by-design", got "wontfix"/);
    expect(bad({ 'a/b': { status: 'fail', reason: 7 } })).toThrow(/\/a~1b\/reason: must be a string, got 7/);
    expect(bad({ 'a/b': { status: 'fail', why: 'x' } })).toThrow(/\/a~1b: unknown member "why"/);
    expect(bad({ 'a/b': ['fail'] })).toThrow(ReportFileError);
  });

  it('agrees with protocol/schemas/baseline.schema.json on what is a baseline', () => {
    const valid = validators.baseline();
    const docs: unknown[] = [
      DESIGNED,
      { 'a/b': 'flaky' },
      { 'a/b': 'pass' },
      { 'a/b': { status: 'fail', kind: 'wontfix' } },
      { 'a/b': { status: 'fail', why: 'x' } },
      { 'a/b': { kind: 'bug' } },
      { 'a/b': { status: 'timeout', link: 'x' } },
      { 'a/b': 3 },
    ];
    for (const doc of docs) {
      let loads = true;
      try {
        loadBaselineEntries(write('agree.json', doc));
      } catch {
        loads = false;
      }
      expect(valid(doc), JSON.stringify(doc)).toBe(loads);
    }
  });
});

describe('applyBaseline with kinds', () => {
  it('excuses by-design failures apart, with their notes; a bug without a note has none', () => {
    const { report, unexpected, stale } = applyBaseline(broken, write('designed.json', DESIGNED));
    expect(unexpected).toEqual([]);
    expect(stale).toEqual([]);
    expect(report.baseline).toMatchObject({
      known: ['budget/tiny', 'capabilities/pinned-first', 'hostile/markup-ids', 'render/two-sources'],
      stale: [],
      by_design: ['render/two-sources'],
      notes: {
        'render/two-sources': { kind: 'by-design', reason: WHY, link: 'https://example.com/adr/7' },
        'hostile/markup-ids': { kind: 'bug', reason: 'escaping bug', link: 'https://example.com/issues/12' },
      },
    });
    expect(Object.keys(report.baseline!.notes!)).toHaveLength(2);
    const valid = validators.report();
    expect(valid(report)).toBe(true);
    const v = verdict(report);
    expect(v.passed).toBe(true);
    expect(v.byDesign.map((c) => c.id)).toEqual(['render/two-sources']);
    expect(verdictLine(report)).toBe(
      'PASS (known failures only): 4 of 8 cases that ran did not pass (3 fail, 1 crash); baseline: 4 known (1 by design), 0 unexpected, 0 stale',
    );
  });

  it('holds a by-design entry to its status, and makes it stale when its case passes', () => {
    const other = applyBaseline(broken, write('status.json', { 'render/two-sources': { status: 'crash', kind: 'by-design', reason: WHY } }));
    expect(other.unexpected.map((c) => c.id)).toContain('render/two-sources');
    const passing = applyBaseline(reference, write('gone.json', DESIGNED));
    expect(passing.stale).toContain('render/two-sources');
    expect(passing.report.baseline!.by_design).toBeUndefined();
    expect(passing.report.baseline!.notes!['render/two-sources']!.reason).toBe(WHY);
    expect(verdict(passing.report).passed).toBe(false);
  });

  it('says "deviations by design only" when nothing else is excused', () => {
    const only = applyBaseline(
      { ...broken, cases: broken.cases.filter((c) => c.id !== 'budget/tiny' && c.id !== 'capabilities/pinned-first' && c.id !== 'hostile/markup-ids') },
      write('only.json', DESIGNED),
    );
    expect(verdictLine({ ...only.report, summary: summarize(only.report.cases) })).toMatch(/^PASS \(deviations by design only\)/);
  });

  it('takes the notes along when a previous report is the baseline', () => {
    const previous = applyBaseline(broken, write('designed.json', DESIGNED)).report;
    const entries = loadBaselineEntries(write('previous.json', previous));
    // A previous report keys each entry to the failure it shows.
    expect(entries['render/two-sources']).toEqual({
      status: 'fail',
      kind: 'by-design',
      reason: WHY,
      link: 'https://example.com/adr/7',
      defect: caseKey('render/two-sources'),
    });
    expect(entries['budget/tiny']).toEqual({ status: 'crash', kind: 'bug', defect: { members: [] } });
    expect(caseKey('render/two-sources').members.length).toBeGreaterThan(0);
  });
});

describe('updateBaseline and ctxconform baseline --write', () => {
  it('keeps kinds, reasons and links; updates a changed status; drops what passes; keeps what did not run; adds new failures as bugs', () => {
    const previous = loadBaselineEntries(write('prev.json', { ...DESIGNED, 'budget/tiny': 'fail', 'not/run': { status: 'fail', reason: 'other shard' } }));
    const now: Report = {
      ...broken,
      cases: broken.cases.map((c) => (c.id === 'capabilities/pinned-first' ? { ...c, status: 'skip', message: 'not declared' } : c)),
    };
    const u = updateBaseline(previous, now);
    // Entries without a key get the key of the failure the report shows; what did not run stays as it was.
    expect(u.entries).toEqual({
      'budget/tiny': { status: 'crash', kind: 'bug', defect: { members: [] } },
      'capabilities/pinned-first': { status: 'fail', kind: 'bug' },
      'hostile/markup-ids': {
        status: 'fail',
        kind: 'bug',
        reason: 'escaping bug',
        link: 'https://example.com/issues/12',
        defect: caseKey('hostile/markup-ids'),
      },
      'not/run': { status: 'fail', kind: 'bug', reason: 'other shard' },
      'render/two-sources': { status: 'fail', kind: 'by-design', reason: WHY, link: 'https://example.com/adr/7', defect: caseKey('render/two-sources') },
    });
    expect([u.added, u.changed, u.removed, u.untouched]).toEqual([[], ['budget/tiny'], [], ['capabilities/pinned-first', 'not/run']]);
    expect(u.rekeyed.sort()).toEqual(['budget/tiny', 'hostile/markup-ids', 'render/two-sources']);
    const fixed = updateBaseline(previous, reference);
    expect(fixed.removed.sort()).toEqual(['budget/tiny', 'capabilities/pinned-first', 'hostile/markup-ids', 'render/two-sources']);
    expect(Object.keys(fixed.entries)).toEqual(['not/run']);
    // What it writes reads back as the same entries, in id order.
    expect(loadBaselineEntries(write('round.json', formatBaseline(u.entries)))).toEqual(u.entries);
    expect(Object.keys(JSON.parse(formatBaseline(u.entries)))).toEqual(Object.keys(u.entries).sort());
  });

  it('writes a baseline from a report, and brought up to date later keeps the reasons added by hand', () => {
    const brokenJson = write('broken.json', broken);
    const file = join(dir, 'out', '.ctxconform-baseline.json');
    const first = cli('baseline', brokenJson, '--write', file);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/wrote .*: 4 entries; 4 new entries, 0 with a changed status, 0 removed \(now pass\), 0 not run and kept/);
    expect(first.stdout).toMatch(/4 entries have no reason yet/);
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { status: string; kind: string; reason?: string }>;
    expect(written['budget/tiny']).toEqual({ status: 'crash', kind: 'bug', defect: { members: [] } });
    written['render/two-sources'] = { ...written['render/two-sources']!, kind: 'by-design', reason: WHY };
    writeFileSync(file, JSON.stringify(written, null, 2));
    // The run the baseline was made for passes with it, and shows the deviation apart.
    const run = cli(
      'run',
      '--module',
      join(ROOT, 'test/fixtures/reports/broken-impl.ts'),
      '--cases',
      join(ROOT, 'test/fixtures/reports/cases'),
      '--properties',
      '0',
      '--baseline',
      file,
    );
    expect(run.stdout).toContain('3 known failures from the baseline: budget/tiny, capabilities/pinned-first, hostile/markup-ids');
    expect(run.stdout).toContain(`1 deviation by design (baseline):\n  render/two-sources: ${WHY}`);
    expect(run.status).toBe(0);
    // Later only two cases still fail: the others go, the reason stays.
    const partly = write('partly.json', {
      ...broken,
      cases: broken.cases.map((c) => (c.id === 'budget/tiny' || c.id === 'hostile/markup-ids' ? { ...c, status: 'pass' } : c)),
    });
    const again = cli('baseline', partly, '--write', file);
    expect(again.stdout).toContain('removed budget/tiny (now passes)');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      'capabilities/pinned-first': { status: 'fail', kind: 'bug', defect: caseKey('capabilities/pinned-first') },
      'render/two-sources': { status: 'fail', kind: 'by-design', reason: WHY, defect: caseKey('render/two-sources') },
    });
    // Without --write it prints, and changes nothing.
    expect(JSON.parse(cli('baseline', brokenJson).stdout)).toHaveProperty(['budget/tiny', 'status'], 'crash');
    expect(cli('baseline', join(dir, 'nope.json')).status).toBe(2);
  });
});

describe('deviations by design in every writer', () => {
  let report: Report;
  beforeAll(() => {
    report = applyBaseline(broken, write('designed.json', DESIGNED)).report;
  });

  it('Markdown: a section of their own, not among the failures', () => {
    const md = renderMarkdown(report);
    const section = md.slice(md.indexOf('### Deviations by design (1)'), md.indexOf('### Failures'));
    expect(section).toContain(
      '| `render/two-sources` | ❌ fail | REN-1, REN-2, REN-3 | we render by priority within a source, deliberately | `https://example.com/adr/7` |',
    );
    expect(md).toContain('### Failures (3)');
    expect(md.slice(md.indexOf('### Failures'))).not.toContain('render/two-sources');
  });

  it('HTML: a table of their own, the row marked "by design", the link as text', () => {
    const html = renderHtml(report);
    const table = /<table id="by-design-table">[\s\S]*?<\/table>/.exec(html)![0];
    expect(table).toContain('render/two-sources');
    expect(table).toContain(`<td class="msg">${WHY}</td><td><code>https://example.com/adr/7</code></td>`);
    expect(html).toMatch(/<tr data-status="fail" data-area="render"><td><span class="st fail">fail<\/span> <span class="known">by design<\/span>/);
    expect(html).toContain('<span class="known">deviation by design (baseline)</span>');
    expect(html).not.toContain('href="https://');
  });

  it('JUnit: the failure says [by design] and why', () => {
    const xml = renderJunit(report);
    expect(xml).toMatch(/<testcase classname="render" name="two-sources"[^>]*>\s*<failure message="\[by design\] /);
    expect(xml).toContain(`deviation by design (baseline): ${WHY}`);
    expect(xml).toMatch(/<testcase classname="hostile" name="markup-ids"[^>]*>\s*<failure message="\[known failure\] /);
  });
});

describe('the flaky status in every writer, merge and diff', () => {
  const flakyCase: CaseResult = {
    id: 'render/two-sources',
    kind: 'case',
    level: 'profile',
    status: 'flaky',
    requirements: ['REN-1', 'REQ-2'],
    duration_ms: 3,
    message:
      'sent 2 times gave 2 different answers (REQ-2: the answer is a pure function of the request):\n  repeat 1: pass\n  repeat 2: fail: included differs',
    answers: [
      { repeats: [1], status: 'pass', answer: { included: ['b-1', 'b-2'] } },
      { repeats: [2], status: 'fail', message: 'included differs', answer: { included: ['b-2', 'b-1'] } },
    ],
  };
  let r: Report;
  beforeAll(() => {
    const cases = reference.cases.map((c) => (c.id === flakyCase.id ? flakyCase : c));
    r = { ...reference, run: { ...reference.run, repeat: 2 }, summary: summarize(cases), cases };
  });

  it('counts it apart and fails the run with it', () => {
    expect(r.summary.flaky).toBe(1);
    expect(verdict(r).passed).toBe(false);
    expect(verdictLine(r)).toBe('FAIL: 1 of 8 cases that ran did not pass (1 flaky)');
    expect(validators.report()(r)).toBe(true);
    expect(badgeData(r).message).toBe('87%');
    expect(summaryTable(r)).toMatch(/^render +0 +0 +0 +0 +0 +1 +0 +1$/m);
  });

  it('JUnit: a failure of type flaky with each answer', () => {
    const xml = renderJunit(r);
    expect(xml).toMatch(/<failure message="sent 2 times[^"]*" type="flaky">/);
    expect(xml).toContain('answer of repeat 2 (fail):');
    expect(xml).toMatch(/<testsuites name="[^"]*" tests="8" failures="1" errors="0" skipped="0"/);
    expect(xml).toContain('<property name="repeat" value="2"/>');
  });

  it('Markdown and HTML: a flaky count and column, and the answers', () => {
    const md = renderMarkdown(r);
    expect(md).toContain('| 🎲 flaky | 1 |');
    expect(md).toContain('| area | cases | pass | fail | error/timeout/crash | flaky | skip | score |');
    expect(md).toContain('<details><summary>repeat 2: fail</summary>');
    const html = renderHtml(r);
    expect(html).toContain('<td class="n" data-count="flaky">1</td>');
    expect(html).toContain('<th>repeat 1: pass</th><th>repeat 2: fail</th>');
    expect(html).toMatch(/<section class="failure flaky"/);
  });

  it('shows no flaky count for a run without --repeat, where flakiness was not tested', () => {
    expect(renderHtml(reference)).not.toContain('data-count="flaky"');
    expect(renderMarkdown(reference)).not.toContain('flaky');
    expect(summaryTable(reference)).not.toContain('flaky');
  });

  it('merge sums it; diff calls pass -> flaky a regression and fail -> flaky a change', () => {
    const [a, b] = [r.cases.slice(0, 4), r.cases.slice(4)];
    const shard = (cases: CaseResult[], i: number): Report => ({ ...r, run: { ...r.run, shard: `${i}/2` }, summary: summarize(cases), cases });
    expect(
      mergeReports([
        { file: 'a', report: shard(a, 1) },
        { file: 'b', report: shard(b, 2) },
      ]).summary.flaky,
    ).toBe(1);
    // Shards of one run share its repeats: a shard sent once cannot be joined to one sent twice.
    expect(() =>
      mergeReports([
        { file: 'a', report: shard(a, 1) },
        { file: 'b', report: { ...shard(b, 2), run: { ...shard(b, 2).run, repeat: 3 } } },
      ]),
    ).toThrow(/b has run.repeat 3, a 2: shards of one run share it/);
    expect(diffReports(reference, r).regressed).toEqual([{ id: flakyCase.id, from: 'pass', to: 'flaky', message: flakyCase.message }]);
    expect(diffReports(broken, r).changed.map((c) => [c.id, c.from, c.to])).toContainEqual([flakyCase.id, 'fail', 'flaky']);
  });

  it('reads a report of a kit before --repeat (no flaky count) as flaky 0', () => {
    const { flaky: _, ...old } = reference.summary;
    const file = write('old.json', { ...reference, kit: { ...reference.kit, version: '0.0.9' }, summary: old });
    expect(readReport(file).summary.flaky).toBe(0);
  });
});
