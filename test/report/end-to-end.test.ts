/**
 * Every format from three real runs of `ctxconform run` (the reference, the
 * broken implementation and the Python example), read back and checked
 * against the JSON report they were rendered from.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../protocol/types.js';
import { badgeJsonPath, writeReports } from '../../report/index.js';
import { cliWith } from '../cli.js';
import { FIXTURE_CASES_DIR, PYTHON_EXAMPLE, pythonAvailable, referenceRun, fixtureCases } from '../fixtures/reports/build.js';
import { all, parseXml } from './xml.js';
import { levelsReached } from '../../protocol/verdict.js';

const BROKEN = 'test/fixtures/reports/broken-impl.ts';
let dir: string;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  files: { json: string; junit: string; markdown: string; html: string; badge: string };
  report: Report;
}

function run(name: string, impl: string[], extra: string[] = []): Run {
  const files = {
    json: join(dir, name, 'report.json'),
    junit: join(dir, name, 'junit.xml'),
    markdown: join(dir, name, 'summary.md'),
    html: join(dir, name, 'report.html'),
    badge: join(dir, name, 'badge.svg'),
  };
  const args = [
    'run',
    ...impl,
    '--cases',
    FIXTURE_CASES_DIR,
    '--properties',
    '0',
    '--quiet',
    ...Object.entries(files).flatMap(([k, f]) => [`--${k}`, f]),
    ...extra,
  ];
  const r = cliWith({ timeout: 60_000 }, ...args);
  const report = existsSync(files.json) ? (JSON.parse(readFileSync(files.json, 'utf8')) as Report) : (undefined as unknown as Report);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, files, report };
}

function checkFormats(r: Run): void {
  const s = r.report.summary;
  const junit = parseXml(readFileSync(r.files.junit, 'utf8'));
  expect([junit.attrs.tests, junit.attrs.failures, junit.attrs.skipped].map(Number)).toEqual([s.total, s.fail, s.skip]);
  expect(all(junit, 'testcase').map((t) => `${t.attrs.classname}/${t.attrs.name}`)).toEqual(r.report.cases.map((c) => c.id));
  const md = readFileSync(r.files.markdown, 'utf8');
  expect(md).toContain(`| **total** | **${s.total}** |`);
  const html = readFileSync(r.files.html, 'utf8');
  expect(html.match(/<tr data-status=/g)).toHaveLength(s.total);
  const badge = JSON.parse(readFileSync(badgeJsonPath(r.files.badge), 'utf8'));
  expect(badge.message).toBe(`${Math.floor((100 * s.pass) / (s.total - s.skip))}%`);
  expect(parseXml(readFileSync(r.files.badge, 'utf8')).attrs['aria-label']).toBe(`conformance: ${badge.message}`);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ctxc-e2e-'));
});

describe('reports of real runs', () => {
  it('the reference: every format says all pass', () => {
    const r = run('reference', ['--impl', 'reference']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.report.summary).toMatchObject({ total: 8, pass: 8 });
    checkFormats(r);
    expect(readFileSync(r.files.markdown, 'utf8')).toContain('**PASS: all 8 cases that ran passed**');
    expect(JSON.parse(readFileSync(badgeJsonPath(r.files.badge), 'utf8'))).toEqual({
      schemaVersion: 1,
      label: 'conformance',
      message: '100%',
      color: 'brightgreen',
    });
  });

  it('the broken implementation: failures and a crash in every format, exit 1', () => {
    const r = run('broken', ['--module', BROKEN]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.report.summary).toMatchObject({ total: 8, pass: 4, fail: 3, crash: 1 });
    checkFormats(r);
    const junit = parseXml(readFileSync(r.files.junit, 'utf8'));
    expect(all(junit, 'failure').map((f) => f.attrs.message!.split('\n')[0])).toEqual([
      'included: expected ["p","m"], got ["m","p"]',
      expect.stringContaining('included: expected ["<script>window.__pwned=1;alert(1)</script>"'),
      'included: expected ["b-1","b-2"], got ["b-2","b-1"]',
    ]);
    expect(all(junit, 'error')[0]!.attrs).toMatchObject({ type: 'crash' });
    expect(readFileSync(r.files.markdown, 'utf8')).toContain('**FAIL: 4 of 8 cases that ran did not pass (3 fail, 1 crash)**');
    expect(readFileSync(r.files.html, 'utf8')).toContain('<div class="verdict fail" id="verdict">');
    expect(JSON.parse(readFileSync(badgeJsonPath(r.files.badge), 'utf8'))).toMatchObject({ message: '50%', color: 'orange' });
  });

  it('a baseline excuses known failures (exit 0) and a stale one fails the run (exit 1)', () => {
    const previous = run('broken-previous', ['--module', BROKEN]);
    const known = run('broken-known', ['--module', BROKEN], ['--baseline', previous.files.json]);
    expect(known.status, known.stdout).toBe(0);
    expect(known.report.baseline?.known).toHaveLength(4);
    expect(readFileSync(known.files.markdown, 'utf8')).toContain(
      '**PASS (known failures only): 4 of 8 cases that ran did not pass (3 fail, 1 crash); baseline: 4 known, 0 unexpected, 0 stale**',
    );
    const fixed = run('fixed', ['--impl', 'reference'], ['--baseline', previous.files.json]);
    expect(fixed.report.baseline?.stale).toEqual(['budget/tiny', 'capabilities/pinned-first', 'hostile/markup-ids', 'render/two-sources']);
    expect(readFileSync(fixed.files.markdown, 'utf8')).toContain('### Stale baseline expectations');
    expect(all(parseXml(readFileSync(fixed.files.junit, 'utf8')), 'failure').map((f) => f.attrs.type)).toEqual(['stale', 'stale', 'stale', 'stale']);
    expect(fixed.status, fixed.stdout).toBe(1);
  });

  it.runIf(pythonAvailable())('the Python example: capability and profile cases are skipped, with reasons', () => {
    const r = run('python', ['--stdio', `python3 ${PYTHON_EXAMPLE}`]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.report.summary).toMatchObject({ total: 8, pass: 6, skip: 2 });
    expect(r.report.implementation.language).toBe('python');
    checkFormats(r);
    const skipped = all(parseXml(readFileSync(r.files.junit, 'utf8')), 'skipped').map((s) => s.attrs.message);
    expect(skipped).toEqual(['capability pinned not declared by the implementation', 'profile ranked is not declared by the implementation']);
    expect(JSON.parse(readFileSync(badgeJsonPath(r.files.badge), 'utf8'))).toMatchObject({ message: '100%', color: 'brightgreen' });
  });

  it('writeReports creates parent directories and returns what it wrote, the badge endpoint JSON beside the SVG', async () => {
    const report = await referenceRun(fixtureCases());
    const base = join(dir, 'direct', 'deep', 'er');
    const written = await writeReports(report, { json: join(base, 'r.json'), badge: join(base, 'conformance.svg') });
    expect(written).toEqual([join(base, 'r.json'), join(base, 'conformance.svg'), join(base, 'conformance.json')]);
    // The report as the run made it, and the levels it reached, which the JSON report writes from its results.
    expect(JSON.parse(readFileSync(join(base, 'r.json'), 'utf8'))).toEqual({ ...report, levels: levelsReached(report) });
    expect(await writeReports(report, {})).toEqual([]);
    expect(badgeJsonPath('x/badge')).toBe('x/badge.json');
  });

  it('writeReports refuses two formats writing one file, and a format it does not know, before writing anything', async () => {
    const report = await referenceRun(fixtureCases());
    const base = join(dir, 'clash');
    // The badge's endpoint JSON goes beside its SVG: r.svg -> r.json, the JSON report's file.
    await expect(writeReports(report, { json: join(base, 'r.json'), badge: join(base, 'r.svg') })).rejects.toThrow(
      `${join(base, 'r.json')} would be written by both --json and --badge: give them different files`,
    );
    await expect(writeReports(report, { tap: join(base, 'r.tap') })).rejects.toThrow(/^no report format named tap \(formats: json, /);
    expect(existsSync(base)).toBe(false);
  });
});
