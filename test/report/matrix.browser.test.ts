/**
 * The matrix page of four implementations (the reference, the Python example
 * and two broken fixtures, over the bundled corpus) in a real browser
 * (Debian's headless Chromium through playwright-core): filters work, a
 * failing cell opens to expected vs actual, nothing from the data runs, no
 * request leaves the page, and without JavaScript every row is shown.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMatrix, disagrees } from '../../report/matrix.js';
import type { Matrix, MatrixInput } from '../../report/matrix.js';
import { renderMatrixHtml } from '../../report/matrix-html.js';
import { matrixRuns, pythonAvailable } from '../fixtures/reports/build.js';
import { hostileReport } from '../fixtures/reports/hostile-report.js';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, NO_TRESPASS, openWatched, trespasses } from './browser.js';
import type { Watched } from './browser.js';
if (!HAVE_CHROMIUM) console.warn(`matrix.browser.test: skipped: ${CHROMIUM} is absent (apt-get install chromium)`);

let browser: Browser;
let dir: string;
let runs: MatrixInput[];
let m: Matrix;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  dir = mkdtempSync(join(tmpdir(), 'ctxc-matrix-html-'));
  runs = await matrixRuns();
  m = buildMatrix(runs);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

function open(html: string, name: string, javaScriptEnabled = true): Promise<Watched> {
  return openWatched(browser, join(dir, `${name}.html`), html, { javaScriptEnabled, width: 1400 });
}

const visibleRows = (page: Page): Promise<number> => page.locator('#matrix tbody tr[data-area]:visible').count();

describe.skipIf(!HAVE_CHROMIUM)('the matrix page in Chromium', () => {
  it('shows four implementations side by side, and filters rows by difference, status and area', async () => {
    expect(m.columns).toHaveLength(pythonAvailable() ? 4 : 3);
    const { page, requests, dialogs, errors } = await open(renderMatrixHtml(m), 'four');
    expect(await page.locator('#matrix thead th.impl').allTextContents()).toEqual(m.columns.map((c) => `${c.name} ${c.version}`));
    expect(await visibleRows(page)).toBe(m.rows.length);
    expect(await page.locator('#shown').textContent()).toBe(`${m.rows.length} of ${m.rows.length} cases shown`);

    const differing = m.rows.filter(disagrees);
    expect(differing.length).toBeGreaterThan(0);
    await page.click('button[data-filter-differs="1"]');
    expect(await visibleRows(page)).toBe(differing.length);
    // Area headers stay only for areas with a row shown.
    expect(await page.locator('#matrix tbody tr[data-area-head]:visible').count()).toBe(new Set(differing.map((r) => r.area)).size);

    await page.click('button[data-filter-differs=""]');
    await page.click('button[data-filter-status="fail"]');
    expect(await visibleRows(page)).toBe(m.rows.filter((r) => r.cells.some((c) => c.status === 'fail')).length);
    await page.click('button[data-filter-area="numbers"]');
    expect(await visibleRows(page)).toBe(m.rows.filter((r) => r.area === 'numbers' && r.cells.some((c) => c.status === 'fail')).length);
    await page.click('button[data-filter-status=""]');
    await page.click('button[data-filter-area=""]');
    expect(await visibleRows(page)).toBe(m.rows.length);

    expect(requests).toEqual([page.url()]);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.evaluate<string[]>('window.__violations')).toEqual([]);
  });

  it('opens a failing cell to its message and expected vs actual on demand', async () => {
    const { page } = await open(renderMatrixHtml(m), 'cell');
    const column = m.columns.findIndex((c) => c.name === 'broken-ceil-estimate') + 4;
    const cell = page.locator(`#matrix tr[data-area="numbers"]:has(td.id:text-is("numbers/floor-not-round")) td:nth-child(${column})`);
    const diff = cell.locator('table.diff');
    expect(await diff.isVisible()).toBe(false);
    await cell.locator('summary').click();
    expect(await diff.isVisible()).toBe(true);
    expect(await diff.locator('th').allTextContents()).toEqual(['expected', 'actual']);
    expect(await diff.locator('td.del mark').count()).toBeGreaterThan(0);
    expect(await cell.locator('pre.message').textContent()).toMatch(/estimated_tokens: expected \d+, got \d+/);
    // The reference's cell in that row is a plain pass.
    expect(await page.locator('#matrix tr:has(td.id:text-is("numbers/floor-not-round")) td:nth-child(4)').textContent()).toBe('pass');
  });

  it('runs nothing from hostile reports, requests nothing, and shows them as text', async () => {
    const w = await open(renderMatrixHtml(buildMatrix([{ source: '<script>alert(7)</script>.json', report: hostileReport() }, runs[0]!])), 'hostile');
    const { page } = w;
    for (const s of await page.locator('#matrix summary').all()) await s.click();
    for (const b of await page.locator('#filters button').all()) await b.click();
    expect(await trespasses(w)).toEqual(NO_TRESPASS);
    const counts = await page.evaluate<{ scripts: number; img: number; links: number }>(`({
      scripts: document.querySelectorAll('script').length,
      img: document.querySelectorAll('img, svg, iframe, object, embed').length,
      links: document.querySelectorAll('a').length,
    })`);
    expect(counts).toEqual({ scripts: 2, img: 0, links: 0 });
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the text a reader sees; textContent would add the page's own script and style
    const text = await page.locator('body').innerText();
    expect(text).toContain('<script>window.__pwned=1;alert(1)</script>');
    expect(text).toContain('<script>alert(7)</script>.json');
  });

  it('shows every row and every score without JavaScript', async () => {
    const { page, requests } = await open(renderMatrixHtml(m), 'nojs', false);
    expect(await visibleRows(page)).toBe(m.rows.length);
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await page.locator('#area-scores tbody tr').count()).toBe(m.areas.length + 1);
    // A failing cell still opens: <details> needs no script.
    const first = page.locator('#matrix td.cell details').first();
    await first.locator('summary').click();
    expect(await first.locator('pre.message').isVisible()).toBe(true);
    expect(requests).toEqual([page.url()]);
  });
});
