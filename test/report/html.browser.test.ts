/**
 * The HTML report in a real browser (Debian's headless Chromium through
 * playwright-core): filters work, nothing from the data runs, no request
 * leaves the page, and without JavaScript everything is shown. Also takes the
 * README's picture of a report with failures: into a temporary folder on every
 * run, into docs/report-screenshot.png only when asked (`npm run screenshot`),
 * so a test run never changes a committed file.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../protocol/types.js';
import { renderHtml } from '../../report/html.js';
import { brokenRun, corpusCases, fixtureCases } from '../fixtures/reports/build.js';
import { hostileReport } from '../fixtures/reports/hostile-report.js';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium, NO_TRESPASS, openWatched, trespasses } from './browser.js';
import type { Watched } from './browser.js';
const COMMITTED_SCREENSHOT = fileURLToPath(new URL('../../docs/report-screenshot.png', import.meta.url));
const UPDATE_SCREENSHOT = process.env.CTXCONFORM_UPDATE_SCREENSHOT === '1';
if (!HAVE_CHROMIUM) console.warn(`html.browser.test: skipped: ${CHROMIUM} is absent (apt-get install chromium)`);

let browser: Browser;
let dir: string;
let broken: Report;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  dir = mkdtempSync(join(tmpdir(), 'ctxc-html-'));
  broken = await brokenRun([...fixtureCases(), ...corpusCases()]);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

function open(report: Report, name: string, javaScriptEnabled = true): Promise<Watched> {
  return openWatched(browser, join(dir, `${name}.html`), renderHtml(report), { javaScriptEnabled });
}

const visibleRows = (page: Page): Promise<number> => page.locator('#results tbody tr:visible').count();

describe.skipIf(!HAVE_CHROMIUM)('HTML report in Chromium', () => {
  it('filters rows and failures by status and area', async () => {
    const { page, requests, dialogs, errors } = await open(broken, 'broken');
    const s = broken.summary;
    expect(await visibleRows(page)).toBe(s.total);
    expect(await page.locator('#shown').textContent()).toBe(`${s.total} of ${s.total} shown`);
    await page.click('button[data-filter-status="fail"]');
    expect(await visibleRows(page)).toBe(s.fail);
    expect(await page.locator('section.failure:visible').count()).toBe(s.fail);
    await page.click('button[data-filter-area="render"]');
    const renderFails = broken.cases.filter((c) => c.id.startsWith('render/') && c.status === 'fail').length;
    expect(renderFails).toBeGreaterThan(0);
    expect(await visibleRows(page)).toBe(renderFails);
    await page.click('button[data-filter-status="crash"]');
    expect(await visibleRows(page)).toBe(0);
    await page.click('button[data-filter-status=""]');
    expect(await visibleRows(page)).toBe(broken.cases.filter((c) => c.id.startsWith('render/')).length);
    expect(await page.locator('button[data-filter-area="render"]').getAttribute('aria-pressed')).toBe('true');
    await page.click('button[data-filter-area=""]');
    expect(await visibleRows(page)).toBe(s.total);
    expect(requests).toEqual([page.url()]);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.evaluate<string[]>('window.__violations')).toEqual([]);
  });

  it(`takes the screenshot of a report with failures${UPDATE_SCREENSHOT ? ' into docs/' : ''}`, async () => {
    // The fixture cases alone: a short report whose first screen reaches a failure's diff.
    // Times fixed, so the committed picture only changes when the report's look does.
    const run = await brokenRun(fixtureCases());
    const stable: Report = {
      ...run,
      run: { ...run.run, started_at: '2026-01-01T12:00:00.000Z', duration_ms: 140 },
      cases: run.cases.map((c, i) => ({ ...c, duration_ms: 0.2 + i / 10 })),
    };
    const { page } = await open(stable, 'shot');
    await page.click('button[data-filter-status="fail"]');
    expect(await visibleRows(page)).toBe(3);
    const top = await page.locator('#failures').boundingBox();
    const end = await page.locator('section.failure[data-area="render"]').boundingBox();
    expect(top && end).toBeTruthy();
    const path = UPDATE_SCREENSHOT ? COMMITTED_SCREENSHOT : join(dir, 'report-screenshot.png');
    const png = await page.screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.min(end!.y + end!.height + 16, 2400) } });
    expect(existsSync(path)).toBe(true);
    // A PNG of the page as clipped: the signature, then a width of 1280 in the IHDR chunk.
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1280);
  });

  it('runs nothing from hostile data, requests nothing, and shows it as text', async () => {
    const w = await open(hostileReport(), 'hostile');
    const { page } = w;
    await page.click('button[data-filter-status="fail"]');
    for (const b of await page.locator('#filters button').all()) await b.click();
    expect(await trespasses(w)).toEqual(NO_TRESPASS);
    const counts = await page.evaluate<{ scripts: number; img: number; links: Array<string | null> }>(`({
      scripts: document.querySelectorAll('script').length,
      img: document.querySelectorAll('img, svg, iframe, object, embed').length,
      links: Array.from(document.querySelectorAll('a')).map((a) => a.getAttribute('href')),
    })`);
    expect(counts.scripts).toBe(2);
    expect(counts.img).toBe(0);
    expect(counts.links.length).toBeGreaterThan(0);
    expect(counts.links.filter((h) => !/^#f-\d+$/.test(h ?? ''))).toEqual([]);
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the text a reader sees; textContent would add the page's own script and style
    const text = await page.locator('body').innerText();
    expect(text).toContain('<script>window.__pwned=1;alert(1)</script>');
    expect(text).toContain('"><img src=x onerror="window.__pwned=2;alert(2)">');
    expect(text).toContain('<a href="javascript:window.__pwned=4">click</a>');
    // The area filter offers the hostile area as text too.
    expect(await page.locator('#filters button').allTextContents()).toContain('<script>window.__pwned=1;alert(1)< (1)');
  });

  it('shows everything without JavaScript', async () => {
    const { page, requests } = await open(broken, 'nojs', false);
    expect(await visibleRows(page)).toBe(broken.summary.total);
    expect(await page.locator('section.failure:visible').count()).toBe(
      broken.summary.fail + broken.summary.error + broken.summary.timeout + broken.summary.crash,
    );
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await page.locator('#coverage-matrix').isVisible()).toBe(true);
    expect(requests).toEqual([page.url()]);
  });
});
