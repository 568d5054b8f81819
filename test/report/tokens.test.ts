import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../cli/usage.js';
import { run as runTokens } from '../../cli/tokens.js';
import { writeReports } from '../../report/index.js';
import { ENCODINGS, markerOverhead, measureCases, median, percentile, tokenTable } from '../../running/tokens.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import { cli } from '../cli.js';
import { FIXTURE_CASES_DIR, fixtureCases, referenceRun } from '../fixtures/reports/build.js';

describe('token statistics', () => {
  it('takes nearest-rank percentiles and the middle median', () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
    // p5 of 20 values: rank ceil(0.05 * 20) = 1; p95: rank 19.
    expect(percentile(xs, 5)).toBe(1);
    expect(percentile(xs, 95)).toBe(19);
    expect(percentile([7], 95)).toBe(7);
    expect(median([1, 2, 3, 10])).toBe(2.5);
    expect(median([1, 2, 9])).toBe(2);
    expect(Number.isNaN(median([]))).toBe(true);
  });

  it('lists the cases whose estimate is below 90% of the real count, worst first', () => {
    const t = tokenTable([
      { id: 'a', estimated_tokens: 9, context_estimate: 9, real: { o200k_base: 10, cl100k_base: 11 } },
      { id: 'b', estimated_tokens: 5, context_estimate: 9, real: { o200k_base: 10, cl100k_base: 4 } },
      { id: 'c', estimated_tokens: 8, context_estimate: 9, real: { o200k_base: 10, cl100k_base: 8 } },
    ]);
    const o = t.encodings.find((e) => e.encoding === 'o200k_base')!;
    // Ratios 0.9, 0.5, 0.8: 0.9 is not below 90%.
    expect(o.undercounts.map((u) => [u.id, u.ratio])).toEqual([
      ['b', 0.5],
      ['c', 0.8],
    ]);
    expect([o.median, o.p5, o.p95]).toEqual([0.8, 0.5, 0.9]);
    const cl = t.encodings.find((e) => e.encoding === 'cl100k_base')!;
    // 9/11 = 0.818 is an undercount; 5/4 and 8/8 are not.
    expect(cl.undercounts.map((u) => u.id)).toEqual(['a']);
  });

  it('measures the reference contexts of the fixture cases', () => {
    const rows = measureCases(fixtureCases());
    // errors/negative-budget answers an error: no context to count.
    expect(rows.map((r) => r.id)).toEqual([
      'budget/per-block-cut',
      'budget/tiny',
      'capabilities/pinned-first',
      'expiry/expired-first',
      'hostile/markup-ids',
      'ranked/one-line',
      'render/two-sources',
    ]);
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    // Worked out from SPEC NUM-2: block costs for tiered, header 29 + line 6 for ranked.
    expect(byId['render/two-sources']).toMatchObject({ estimated_tokens: 2, context_estimate: 10 });
    expect(byId['ranked/one-line']).toMatchObject({ estimated_tokens: 35 });
    expect(byId['capabilities/pinned-first']!.estimated_tokens).toBe(4);
    // The ranked header alone is 119 code points of English: well over 20 real tokens.
    for (const r of rows) for (const e of Object.keys(ENCODINGS) as (keyof typeof ENCODINGS)[]) expect(r.real[e]).toBeGreaterThan(0);
    expect(byId['ranked/one-line']!.real.o200k_base).toBeGreaterThan(20);
  });

  it('reports what omission markers add, only where they change the context', () => {
    const mk = (id: string, budget: number): GoldenCase => ({
      id,
      file: 'x',
      description: 'm',
      requirements: ['MRK-4'],
      profile: 'tiered',
      since: 'v1',
      capabilities: [],
      tags: [],
      request: {
        now: 0,
        budget,
        blocks: [
          { block_id: 'a', source: 'memory', content: 'x'.repeat(40), priority: 1 },
          { block_id: 'b', source: 'coverage', content: 'y'.repeat(400), priority: 1 },
        ],
      },
      expect: {},
    });
    // Budget 10000 omits nothing: no marker. Budget 30 drops b (100): one marker. Budget 0 drops both: markers only.
    const m = markerOverhead([mk('none', 10000), mk('one', 30), mk('all', 0)]);
    expect({ contexts: m.contexts, markers: m.markers }).toEqual({ contexts: 2, markers: 3 });
    // '[coverage · b]\n[OMITTED: over token budget]' and its joiner: a dozen real tokens or so, never nothing.
    for (const e of Object.keys(ENCODINGS) as (keyof typeof ENCODINGS)[]) {
      expect(m.per_marker[e]).toBeGreaterThan(5);
      expect(m.per_marker[e]).toBeLessThan(30);
      expect(m.share_max[e]).toBe(1);
    }
  });

  it('counts special-token text in content as ordinary text', () => {
    const c: GoldenCase = {
      id: 'x/special',
      file: 'x',
      description: 'special',
      requirements: ['REN-4'],
      profile: 'tiered',
      since: 'v1',
      capabilities: [],
      tags: [],
      request: { now: 0, budget: 100, blocks: [{ block_id: 'b', source: 'memory', content: '<|endoftext|><|im_start|>', priority: 1 }] },
      expect: { included: ['b'] },
    };
    const [row] = measureCases([c]);
    expect(row!.real.o200k_base).toBeGreaterThan(2);
    expect(row!.real.cl100k_base).toBeGreaterThan(2);
  });

  it('prints the table and writes it as JSON from the command line', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'ctxc-tokens-')), 't', 'tokens.json');
    const r = cli('tokens', '--cases', FIXTURE_CASES_DIR, '--json', out);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('estimate/real token ratio over 7 non-empty reference contexts');
    expect(r.stdout).toMatch(/^o200k_base +\d\.\d{3} +\d\.\d{3} +\d\.\d{3}/m);
    const t = JSON.parse(readFileSync(out, 'utf8'));
    expect(t.encodings.map((e: { encoding: string }) => e.encoding)).toEqual(['o200k_base', 'cl100k_base']);
    expect(t.rows).toHaveLength(7);
  });

  it("renders a run's HTML report with the table, and refuses half of that pair", async () => {
    const d = mkdtempSync(join(tmpdir(), 'ctxc-tokens-'));
    const report = join(d, 'r.json');
    await writeReports(await referenceRun(fixtureCases()), { json: report });
    const html = join(d, 'r.html');
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await runTokens(['--cases', FIXTURE_CASES_DIR, '--report', report, '--html', html])).toBe(0);
    } finally {
      log.mockRestore();
    }
    expect(readFileSync(html, 'utf8')).toMatch(/<tr><td>o200k_base<\/td><td class="n">7<\/td>/);
    await expect(runTokens(['--report', report])).rejects.toThrow(UsageError);
    await expect(runTokens(['--report', join(d, 'none.json'), '--html', html])).rejects.toThrow(/none\.json: cannot read/);
  });
});
