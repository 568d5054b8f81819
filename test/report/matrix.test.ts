/**
 * `ctxconform matrix`: the reference, the Python example and two broken
 * fixtures over the bundled corpus, side by side; a report of an older kit
 * merged by case id; the JSON summary against its schema; the Markdown and
 * HTML as text (the browser test runs the page).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatErrors, validators } from '../../protocol/schemas.js';
import { summarize } from '../../protocol/types.js';
import type { CaseResult, GoldenResult, Report } from '../../protocol/types.js';
import { buildMatrix, compareVersions, disagrees, matrixSummary, NOT_RUN } from '../../report/matrix.js';
import type { Matrix, MatrixInput } from '../../report/matrix.js';
import { renderMatrixHtml } from '../../report/matrix-html.js';
import { renderMatrixMarkdown } from '../../report/matrix-markdown.js';
import { areaOf } from '../../report/text.js';
import { cli } from '../cli.js';
import { matrixRuns, pythonAvailable } from '../fixtures/reports/build.js';
import { hostileReport } from '../fixtures/reports/hostile-report.js';

let dir: string;
let runs: MatrixInput[];
let m: Matrix;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ctxc-matrix-'));
  runs = await matrixRuns();
  m = buildMatrix(runs);
});

const byName = (name: string): number => m.columns.findIndex((c) => c.name === name);

describe('buildMatrix', () => {
  it('has a column per report and a row per case id, each cell the status that report gives', () => {
    expect(m.columns.map((c) => c.name)).toEqual([
      'ctxconform-reference',
      ...(pythonAvailable() ? ['ctxconform-python-example'] : []),
      'broken-ceil-estimate',
      'broken-prefix-cut',
    ]);
    const ids = new Set(runs.flatMap((r) => r.report.cases.map((c) => c.id)));
    expect(m.rows.map((r) => r.id).sort()).toEqual([...ids].sort());
    for (const row of m.rows) {
      runs.forEach(({ report }, i) => {
        expect(row.cells[i]!.status, `${row.id} in ${report.implementation.name}`).toBe(report.cases.find((c) => c.id === row.id)?.status ?? NOT_RUN);
      });
    }
    // Grouped by area, in id order within an area.
    const areas = m.rows.map((r) => r.area);
    expect(areas).toEqual([...areas].sort());
  });

  it('scores each implementation overall and per area as pass / cases that ran', () => {
    runs.forEach(({ report }, i) => {
      const s = report.summary;
      expect(m.overall[i]).toMatchObject({ pass: s.pass, skip: s.skip, not_run: 0, total: s.total, ran: s.total - s.skip });
      for (const a of m.areas) {
        const k = summarize(report.cases.filter((c) => areaOf(c.id) === a.area));
        expect(a.tallies[i]).toMatchObject({ pass: k.pass, fail: k.fail, ran: k.total - k.skip });
        expect(a.tallies[i]!.score).toBe(k.total - k.skip > 0 ? k.pass / (k.total - k.skip) : undefined);
      }
    });
    expect(m.overall[byName('ctxconform-reference')]!.score).toBe(1);
    // Each broken fixture fails something the reference passes: those rows disagree.
    for (const name of ['broken-ceil-estimate', 'broken-prefix-cut']) {
      const i = byName(name);
      expect(m.overall[i]!.fail).toBeGreaterThan(0);
      expect(m.rows.filter((r) => r.cells[i]!.status === 'fail').every(disagrees)).toBe(true);
    }
    // The spec says the estimate floors (NUM-2); the one that rounds up fails the case that pins it.
    expect(m.rows.find((r) => r.id === 'numbers/floor-not-round')!.cells[byName('broken-ceil-estimate')]!.status).toBe('fail');
  });

  it('scores each requirement over the cases citing it', () => {
    const tier4 = m.requirements.find((r) => r.id === 'TIER-4')!;
    const i = byName('broken-prefix-cut');
    const cited = runs[i]!.report.cases.filter((c) => c.requirements.includes('TIER-4'));
    expect(tier4.cases).toEqual(m.rows.filter((r) => r.requirements.includes('TIER-4')).map((r) => r.id));
    expect(tier4.tallies[i]).toMatchObject({ total: cited.length, pass: cited.filter((c) => c.status === 'pass').length });
    expect(tier4.tallies[i]!.fail).toBeGreaterThan(0);
  });

  it('merges the report of an older kit by case id: what it lacks is not run, what it has is compared', () => {
    const now = runs[0]!.report;
    // An older kit: no ranked cases yet, no since, no flaky count, a case since renamed.
    const oldCases: CaseResult[] = now.cases
      .filter((c) => !c.id.startsWith('ranked/'))
      .map((c) => {
        const { since: _, ...old } = c as GoldenResult;
        return old.id === 'expiry/boundary-equal' ? { ...old, id: 'expiry/old-boundary' } : old;
      });
    const { flaky: _f, ...oldSummary } = summarize(oldCases);
    const oldFile = join(dir, 'old.json');
    writeFileSync(oldFile, JSON.stringify({ ...now, kit: { ...now.kit, version: '0.0.9' }, summary: oldSummary, cases: oldCases }));
    writeFileSync(join(dir, 'now.json'), JSON.stringify(now));
    const r = cli('matrix', oldFile, join(dir, 'now.json'), '--json', join(dir, 'old-new.json'));
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(readFileSync(join(dir, 'old-new.json'), 'utf8')) as ReturnType<typeof matrixSummary>;
    const ranked = now.cases.filter((c) => c.id.startsWith('ranked/')).length;
    expect(s.implementations.map((c) => [c.kit, c.summary.not_run])).toEqual([
      ['0.0.9', ranked + 1],
      [now.kit.version, 1],
    ]);
    const row = (id: string) => s.cases.find((c) => c.id === id)!;
    expect(row('expiry/old-boundary').results.map((x) => x.status)).toEqual(['pass', NOT_RUN]);
    expect(row('expiry/boundary-equal').results.map((x) => x.status)).toEqual([NOT_RUN, 'pass']);
    expect(row('ranked/budget-zero').results.map((x) => x.status)).toEqual([NOT_RUN, 'pass']);
    // What the case says of itself comes from the newer kit.
    expect(row('tiers/budgets-at-10').since).toBe('v1');
    expect(s.implementations[0]!.summary.score).toBe(1);
  });

  it('orders kit versions numerically', () => {
    expect(['0.10.0', '0.9.1', '0.9.10', '1.0.0'].sort(compareVersions)).toEqual(['0.9.1', '0.9.10', '0.10.0', '1.0.0']);
  });
});

describe('the JSON summary', () => {
  it('follows protocol/schemas/matrix.schema.json, one result per implementation in column order', () => {
    const s = matrixSummary(m, '9.9.9');
    const valid = validators.matrix();
    expect(valid(s), formatErrors(valid.errors).join('\n')).toBe(true);
    expect(s.generated_by).toEqual({ name: 'ctxconform', version: '9.9.9' });
    expect(s.cases.every((c) => c.results.length === m.columns.length)).toBe(true);
    expect(s.areas.map((a) => a.area)).toEqual(m.areas.map((a) => a.area));
    const failing = s.cases.find((c) => c.id === 'numbers/floor-not-round')!.results[byName('broken-ceil-estimate')]!;
    expect(failing.status).toBe('fail');
    expect(failing.message).toMatch(/estimated_tokens/);
    expect(valid(matrixSummary(buildMatrix([{ source: 'h', report: hostileReport() }]), '1'))).toBe(true);
  });
});

describe('the Markdown matrix', () => {
  it('shows each implementation, the area scores and the cases not every implementation passes', () => {
    const md = renderMatrixMarkdown(m);
    const heads = m.columns.map((c) => `${c.name} ${c.version}`).join(' | ');
    expect(md).toContain(`| area | cases | ${heads} |`);
    const notAll = m.rows.filter((r) => r.cells.some((c) => c.status !== 'pass'));
    expect(md).toContain(`### Cases not passed by every implementation (${notAll.length})`);
    const fl = md.split('\n').find((l) => l.startsWith('| `numbers/floor-not-round` |'))!;
    expect(fl.split(' | ')).toHaveLength(2 + m.columns.length);
    expect(fl).toContain('❌ fail');
  });

  it('keeps hostile strings from reports inert', () => {
    const md = renderMatrixMarkdown(buildMatrix([{ source: 'evil.json', report: hostileReport() }, runs[0]!]));
    expect(md).not.toContain('\u001b');
    let width: number | undefined;
    for (const line of md.split('\n')) {
      // Code spans are literal text (a run of n backticks closes only at a run of exactly n); outside them no tag of the data may open.
      const outside = line.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '').replace(/<br>/g, '');
      expect(outside, line).not.toContain('`');
      expect(outside, line).not.toMatch(/<[a-z!/]/i);
      // Every row of a table has the columns of its header: no pipe from the data opens one.
      const columns = line.startsWith('|') ? outside.split(/(?<!\\)\|/).length : undefined;
      if (columns === undefined) width = undefined;
      else {
        width ??= columns;
        expect(columns, line).toBe(width);
      }
    }
  });
});

describe('the HTML matrix as text', () => {
  it('allows nothing but its own style and script, and has no link at all', () => {
    const html = renderMatrixHtml(buildMatrix([{ source: 'evil.json', report: hostileReport() }, ...runs]));
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!;
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+'; img-src 'none'; base-uri 'none'; form-action 'none'$/);
    expect(html.match(/<script/g)).toHaveLength(2);
    for (const needle of ['<script>window', '<img', '<svg', '<a ', '<b>', '\u001b', '\u0000']) expect(html, needle).not.toContain(needle);
    expect(html).toContain('&lt;script&gt;window.__pwned=1;alert(1)&lt;/script&gt;');
  });

  it('opens a failing cell to its message and expected vs actual; a skip tells its reason; not run is said', () => {
    const html = renderMatrixHtml(m);
    const row = /<tr data-area="numbers" [^>]*><td class="id"[^>]*>numbers\/floor-not-round<\/td>.*?<\/tr>/.exec(html)![0];
    expect(row).toMatch(/<details><summary><span class="st fail">fail<\/span><\/summary><pre class="message">estimated_tokens/);
    expect(row).toContain('<table class="diff"><thead><tr><th>expected</th><th>actual</th></tr>');
    expect(html).toMatch(/<span class="st skip" title="capabilit[^"]+">skip<\/span>/);
    const withOld = renderMatrixHtml(buildMatrix([runs[0]!, { source: 'few.json', report: { ...runs[0]!.report, cases: runs[0]!.report.cases.slice(0, 3) } }]));
    expect(withOld).toContain('<span class="st notrun">not run</span>');
  });

  it('writes the three formats from the CLI for the four implementations', () => {
    const files = runs.map((r) => {
      const f = join(dir, r.source);
      writeFileSync(f, JSON.stringify(r.report));
      return f;
    });
    const out = (f: string) => join(dir, 'out', f);
    const r = cli('matrix', ...files, '--html', out('m.html'), '--markdown', out('m.md'), '--json', out('m.json'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${runs.length} implementations, ${m.rows.length} cases`);
    expect(r.stdout).toMatch(/ctxconform-reference 1\.0\.0 +(\d+)\/\1 \(100%\) +kit /);
    for (const f of ['m.html', 'm.md', 'm.json']) expect(existsSync(out(f))).toBe(true);
    expect(readFileSync(out('m.html'), 'utf8')).toBe(renderMatrixHtml(buildMatrix(runs.map((x, i) => ({ source: files[i]!, report: x.report })))));
  });

  it('refuses a file that is not a report (exit 2) and notes a shard', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"cases": 1}');
    const r = cli('matrix', bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bad\.json: not a ctxconform JSON report/);
    const shard = join(dir, 'shard.json');
    writeFileSync(shard, JSON.stringify({ ...runs[0]!.report, run: { ...runs[0]!.report.run, shard: '1/2' } } satisfies Report));
    const s = cli('matrix', shard);
    expect(s.status).toBe(0);
    expect(s.stderr).toContain('is shard 1/2 of a run');
  });
});
