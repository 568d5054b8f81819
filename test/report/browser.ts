/**
 * Headless Chromium (Debian's, through playwright-core) for the browser tests
 * of the HTML pages: a page opened from a file, with every request, dialog,
 * script error and Content-Security-Policy violation recorded.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface Watched {
  page: Page;
  requests: string[];
  dialogs: string[];
  errors: string[];
}

/** Write `html` to `file` and open it; `window.__violations` collects CSP violations. */
export async function openWatched(
  browser: Browser,
  file: string,
  html: string,
  options: { javaScriptEnabled?: boolean; width?: number } = {},
): Promise<Watched> {
  writeFileSync(file, html);
  const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true, viewport: { width: options.width ?? 1280, height: 900 } });
  const page = await context.newPage();
  const w: Watched = { page, requests: [], dialogs: [], errors: [] };
  page.on('request', (r) => w.requests.push(r.url()));
  page.on('dialog', (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => w.errors.push(e.message));
  // Any blocked attempt to load or run something would show up as a CSP violation.
  // Strings, not functions: this file is type-checked without the DOM library.
  await page.addInitScript(
    "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));",
  );
  await page.goto(pathToFileURL(file).href);
  await page.waitForLoadState('load');
  return w;
}

/** What a page must not have done, for a page of hostile data: each should be empty (or the page's own URL alone). */
export async function trespasses(w: Watched): Promise<{ dialogs: string[]; errors: string[]; pwned: unknown; otherRequests: string[]; violations: string[] }> {
  return {
    dialogs: w.dialogs,
    errors: w.errors,
    pwned: (await w.page.evaluate<unknown>('window.__pwned')) ?? null,
    otherRequests: w.requests.filter((r) => r !== w.page.url()),
    violations: await w.page.evaluate<string[]>('window.__violations'),
  };
}

export const NO_TRESPASS = { dialogs: [], errors: [], pwned: null, otherRequests: [], violations: [] };
