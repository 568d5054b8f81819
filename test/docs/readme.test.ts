/**
 * What the README tells a newcomer matches what the repository does (issue
 * 46): it starts with the two set-up commands; `npm start` writes the reports
 * under the names the README and docs/reports.md give (the registered formats'
 * own, through --reports-dir); its install section holds no placeholder; and
 * the tools some tests need are named with what skips without them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formats, loadFormats } from '../../report/registry.js';
import { ROOT } from '../cli.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('README', () => {
  it('starts with the two set-up commands', () => {
    expect(readme).toMatch(/^# ctxconform\n\n```sh\nnpm ci && npm start\nnpm test\n```\n/);
  });

  it("names the files npm start writes, which are the formats' own names under --reports-dir reports", async () => {
    await loadFormats();
    expect(pkg.scripts['start']).toMatch(/ run --reports-dir reports$/);
    for (const f of formats()) expect(readme, f.name).toContain(`\`reports/${f.file}\``);
    expect(readme).toContain('`reports/badge.json`');
  });

  it('gives the ways to install that work today, with no placeholder, and says what the browser and metrics tests need', () => {
    const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Check your implementation'));
    expect(install).not.toMatch(/OWNER|<[a-z]+>/);
    expect(install).toContain('node ../ctxconform/bin/ctxconform.mjs run');
    expect(install).toContain('npm install --save-dev ../ctxconform/ctxconform-0.1.0.tgz');
    expect(install).toMatch(/npm install --save-dev "git\+file:\/\//);
    expect(readme).toMatch(/esbuild's install script is "not yet covered by allowScripts": harmless/);
    expect(readme).toMatch(/Chromium[\s\S]*skipped and each says so/);
    expect(readme).toMatch(/promtool[\s\S]*skipped without it/);
  });
});
