/**
 * What a run loads: the properties (and fast-check, a tenth of the kit's
 * start-up) only when a property runs or a failing one is observed, so a CI
 * job that runs golden cases alone (`--properties 0`, with a --filter or
 * not) does not pay for them. Each module the compiled CLI loads is written
 * down by a loader hook.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliWith } from '../cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-loads-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const hooks = join(tmp, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.CTXCONFORM_LOADS_TEST, url + '\\n');
  return next(url, context);
}`,
);
const register = join(tmp, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/** The modules of the package (paths under dist/ and node_modules/) that `ctxconform run ARGS` loaded, after checking it passed. */
function loadedBy(name: string, ...args: string[]): string[] {
  const log = join(tmp, `${name}.txt`);
  writeFileSync(log, '');
  const r = cliWith({ env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}`, CTXCONFORM_LOADS_TEST: log } }, 'run', '--quiet', ...args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((u) => u !== '')
    .map((u) => u.replace(/^.*?\/(dist|node_modules)\//, '$1/'));
}

describe('what a run loads', () => {
  it('loads fast-check and the properties when a property runs (so the hook sees them)', () => {
    const loaded = loadedBy('with-properties', '--properties', '1');
    expect(loaded).toContain('node_modules/fast-check/lib/fast-check.js');
    expect(loaded).toContain('dist/judging/properties/catalog.js');
  });

  /** What a run of golden cases alone need not load: fast-check, the properties, the observation of a recorded request. */
  const propertiesOnly = (u: string): boolean =>
    u.includes('fast-check') || (u.includes('/properties/') && !u.endsWith('/properties/names.js')) || u.endsWith('/diagnose/recorded.js');

  it('loads neither for golden cases alone, nor the diagnosis of a recorded request', () => {
    const loaded = loadedBy('cases-only', '--properties', '0');
    expect(loaded).toContain('dist/running/observe.js');
    expect(loaded.filter(propertiesOnly)).toEqual([]);
  });

  it('loads neither for golden cases alone chosen by --filter, which is checked against the property names', () => {
    const loaded = loadedBy('filtered', '--properties', '0', '--filter', 'expiry/*');
    expect(loaded).toContain('dist/judging/properties/names.js');
    expect(loaded.filter(propertiesOnly)).toEqual([]);
  });
});
