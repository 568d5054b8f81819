/** The HTML report as text: its policy, its escaping and its content. The browser test checks it running. */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../protocol/types.js';
import { tokenTable } from '../../running/tokens.js';
import { renderHtml, scriptJson } from '../../report/html.js';
import { fixtureRuns, pythonAvailable } from '../fixtures/reports/build.js';
import { hostileReport } from '../fixtures/reports/hostile-report.js';

let reference: Report;
let broken: Report;
let python: Report | undefined;

beforeAll(async () => {
  ({ reference, broken, python } = await fixtureRuns());
});

const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64');

describe('HTML report', () => {
  it('allows only its own inline style and script, by hash, and nothing else', () => {
    const html = renderHtml(broken);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!;
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['default-src']).toEqual(["'none'"]);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(directives['style-src']).toEqual([`'sha256-${sha(style)}'`]);
    expect(directives['script-src']).toEqual([`'sha256-${sha(scripts[0]!)}'`]);
    // Inside real tags (data `<` is always escaped, so every literal `<` opens one of the writer's own tags).
    const tags = html.match(/<[a-z][^>]*>/gi)!;
    expect(tags.filter((t) => /\s(src|srcset|action|formaction|on[a-z]+)=/i.test(t))).toEqual([]);
    expect(tags.filter((t) => /https?:|javascript:/i.test(t))).toEqual([]);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    // The broken run has failures, so there are links to check, and each is a failure anchor.
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.filter((href) => !/^#f-\d+$/.test(href))).toEqual([]);
  });

  it('embeds data for the script so that no string can end the element', () => {
    const json = scriptJson({ a: '</script><script>alert(1)</script><!-- & \u2028' });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ a: '</script><script>alert(1)</script><!-- & \u2028' });
  });

  it('escapes every hostile string: no tag, attribute or link from the data reaches the markup', () => {
    const html = renderHtml(hostileReport());
    for (const needle of ['<script>window', '<img', '<svg', '<a href="javascript', '<b>', '<!-- ~', 'onerror="window', '\u001b', '\u0000']) {
      expect(html, needle).not.toContain(needle);
    }
    expect(html).toContain('&lt;script&gt;window.__pwned=1;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=&quot;window.__pwned=2;alert(2)&quot;&gt;');
    expect(html).toContain('ctl \\u0000\\u0001');
    // Exactly the two script elements the writer puts there.
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('gives the area filter the same strings as the markup, even for an area with a lone surrogate', () => {
    const id = 'lone\ud800half/case';
    const c = { id, kind: 'case' as const, level: 'profile' as const, status: 'pass' as const, requirements: [], duration_ms: 1 };
    const html = renderHtml({ ...reference, cases: [c], summary: { ...reference.summary, total: 1, pass: 1 } });
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/.exec(html)![1]!) as { areas: Array<{ value: string }> };
    // The file is written as UTF-8, where a lone surrogate can only be U+FFFD: both sides say so.
    expect(data.areas.map((a) => a.value)).toEqual(['lone\ufffdhalf']);
    expect(html).toContain('<tr data-status="pass" data-area="lone\ufffdhalf">');
  });

  it('shows the verdict, counts, one row per case, and a failure section per failing case with a marked diff', () => {
    const html = renderHtml(broken);
    expect(html).toContain('<div class="verdict fail" id="verdict">FAIL: 4 of 8 cases that ran did not pass (3 fail, 1 crash)</div>');
    expect(html).toContain('<td class="n" data-count="fail">3</td>');
    expect(html).toContain('<td class="n" id="score">50%</td>');
    expect(html.match(/<tr data-status=/g)).toHaveLength(8);
    expect(html.match(/<section class="failure /g)).toHaveLength(4);
    const render = /<section class="failure fail" id="f-\d+" data-status="fail" data-area="render">[\s\S]*?<\/section>/.exec(html)![0];
    // Expected b-1 then b-2, actual b-2 then b-1: the differing characters are marked on both sides.
    expect(render).toContain('<td class="del">    &quot;b-<mark>1</mark>&quot;,</td><td class="ins">    &quot;b-<mark>2</mark>&quot;,</td>');
    expect(render).toContain('Rerun: <code>npx ctxconform run --filter &#39;render/two-sources&#39;</code>');
    expect(render).toContain('<code>REN-1</code>, <code>REN-2</code>, <code>REN-3</code>');
  });

  it('has a requirement coverage matrix from SPEC id to cases and their statuses', () => {
    const html = renderHtml(broken);
    const matrix = /<table id="coverage-matrix">[\s\S]*?<\/table>/.exec(html)![0];
    const row = (req: string): string => new RegExp(`<tr><td><code>${req}</code></td>.*?</tr>`).exec(matrix)![0];
    // REN-1 is cited by render/two-sources (fail) and hostile/markup-ids (fail).
    expect(row('REN-1')).toContain('<td class="n">0</td><td class="n">2</td>');
    expect(row('REN-1')).toMatch(/class="chip fail" href="#f-\d+" title="fail">hostile\/markup-ids</);
    expect(row('EXP-1')).toContain('<td class="n">1</td><td class="n">1</td>');
    expect(row('EXP-1')).toContain('<span class="chip pass" title="pass">expiry/expired-first</span>');
    const ids = [...matrix.matchAll(/<tr><td><code>([A-Z]+-\d+)<\/code>/g)].map((m) => m[1]);
    expect(ids).toEqual([
      'EXP-1',
      'EXP-2',
      'NUM-2',
      'PIN-1',
      'PIN-4',
      'RANK-2',
      'RANK-3',
      'RANK-5',
      'REN-1',
      'REN-2',
      'REN-3',
      'REN-4',
      'TIER-2',
      'TIER-4',
      'TIER-5',
      'TIER-7',
      'VAL-2',
    ]);
  });

  it('says PASS for the reference', () => {
    expect(renderHtml(reference)).toContain('<div class="verdict pass" id="verdict">PASS: all 8 cases that ran passed</div>');
  });

  it('shows the token table when given one', () => {
    const t = tokenTable([
      { id: 'a/x', estimated_tokens: 5, context_estimate: 8, real: { o200k_base: 10, cl100k_base: 5 } },
      { id: 'a/y', estimated_tokens: 9, context_estimate: 10, real: { o200k_base: 10, cl100k_base: 9 } },
    ]);
    const html = renderHtml(reference, { tokens: t });
    expect(html).toContain('<h2 id="tokens">Estimate vs real tokens</h2>');
    // o200k_base ratios 0.5 and 0.9: median 0.7; only a/x is below 90%.
    expect(html).toContain(
      '<tr><td>o200k_base</td><td class="n">2</td><td class="n">0.700</td><td class="n">0.500</td><td class="n">0.900</td><td class="n">0.900</td><td class="n">1</td></tr>',
    );
    expect(html).toContain('<tr><td class="id">a/x</td><td class="n">5</td><td class="n">10</td><td class="n">0.500</td></tr>');
    expect(renderHtml(reference)).not.toContain('id="tokens"');
  });

  it.runIf(pythonAvailable())('says PASS for the Python example and shows its skips', () => {
    // It declares neither the pinned capability nor the ranked profile: 2 of the 8 fixture cases skip.
    const html = renderHtml(python!);
    expect(html).toContain('<div class="verdict pass" id="verdict">PASS: all 6 cases that ran passed, 2 skipped</div>');
    expect(html).toContain('<td class="n" data-count="skip">2</td>');
  });
});

describe('HTML size', () => {
  it('keeps full details for the first 200 failures only', async () => {
    const { summarize } = await import('../../protocol/types.js');
    const big = 'y'.repeat(100_000);
    const cases = Array.from({ length: 1000 }, (_, i) => ({
      id: `a/c-${String(i).padStart(4, '0')}`,
      kind: 'case' as const,
      level: 'profile' as const,
      status: 'fail' as const,
      requirements: ['TIER-4'],
      duration_ms: 1,
      message: `m${i}`,
      expected: big,
      actual: `${big}!`,
      stderr: big,
    }));
    const html = renderHtml({ ...broken, summary: summarize(cases), cases });
    expect(html.match(/<section class="failure /g)).toHaveLength(1000);
    expect(html.match(/<table class="diff">/g)).toHaveLength(200);
    expect(html.length).toBeLessThan(20_000_000);
  });
});
