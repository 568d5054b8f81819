/**
 * The sweep's inclusion chart in a real browser (Debian's headless Chromium):
 * drawn and readable with JavaScript off, nothing blocked by the report's
 * Content-Security-Policy and nothing requested with it on, hostile block ids
 * shown as text.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openModule } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { sweep } from '../../traffic/sweep.js';
import { renderHtml } from '../../report/html.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const MUTANT = fileURLToPath(new URL('../fixtures/broken/no-overflow-pool.ts', import.meta.url));
let browser: Browser;
let dir: string;
let file: string;
let bars: number;
let first: number;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  dir = mkdtempSync(join(tmpdir(), 'ctxc-sweep-html-'));
  const base = loadCorpus().cases.find((c) => c.id === 'overflow/pool-by-rank-across-tiers')!.request as { blocks: Record<string, unknown>[] };
  const request = { ...base, blocks: base.blocks.map((b, i) => (i === 1 ? { ...b, block_id: '"><img src=x onerror="window.__pwned=1">' } : b)) };
  const impl = await openModule(MUTANT);
  const report = await sweep({ request, source: 'chart', impl, manifest: await impl.describe(), timeoutMs: 5000, concurrency: 1, shrink: false });
  bars = report.sweep!.blocks.reduce((n, b) => n + b.reference.length + b.implementation.length, 0);
  first = report.sweep!.first_disagreement!;
  file = join(dir, 'sweep.html');
  writeFileSync(file, renderHtml(report));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE_CHROMIUM)('the sweep chart in Chromium', () => {
  it('is drawn without JavaScript: every bar, the axis and the first disagreement, ids as text', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    const chart = page.locator('#sweep-chart svg');
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(800);
    expect(box!.height).toBeGreaterThan(100);
    expect(await page.locator('#sweep-chart svg rect[height="6"]').count()).toBe(bars);
    const text = await chart.textContent();
    expect(text).toContain(`first disagreement: ${first}`);
    expect(text).toContain('budget (tokens)');
    expect(text).toContain('"><img src=x onerror="window.__pwned=1">');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('#sweep-table tbody tr').count()).toBe(4);
    await context.close();
  });

  it('with JavaScript on: nothing blocked by the Content-Security-Policy, nothing requested, nothing run', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(
      "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));",
    );
    await page.goto(pathToFileURL(file).href);
    await page.waitForLoadState('load');
    expect(await page.evaluate<string[]>('window.__violations')).toEqual([]);
    expect(await page.evaluate<unknown>('window.__pwned')).toBeUndefined();
    expect(requests).toEqual([page.url()]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
