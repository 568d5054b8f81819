/**
 * Every command names the levels it judged as `run` does (SPEC LVL-1; issue
 * 46): a sweep of a design of its own is judged by the principles and says
 * so, its table never marks tiered's selection as a difference, and its
 * sentence agrees with its marks; `constants` says in one sentence what it
 * can and cannot infer of an any design; `matrix` gives each run's levels;
 * `help COMMAND` is `COMMAND --help`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-levels-words-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A chat trimmer of its own design (newest messages that fit), and the same reading the history from its start. */
const NEWEST = 'node test/fixtures/designs/newest-fit.mjs';
const OLDEST = 'node test/fixtures/designs/newest-fit.mjs --plant oldest';

describe('the levels each command names', () => {
  it('sweep of an any design: judged by the principles, tiered shown beside with no mark, and a sentence that agrees', () => {
    const r = cli('sweep', '--stdio', NEWEST, '--case', 'any/budget-respected');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\nlevels: any design: PASS, validation: not declared\n/);
    expect(r.stdout).toContain('tiered includes at (no verdict)');
    expect(r.stdout).not.toContain('<- differs');
    expect(r.stdout).toMatch(/\nthe implementation breaks no design-agnostic principle at any swept budget\n?$/);
    const bad = cli('sweep', '--stdio', OLDEST, '--case', 'any/history-in-declared-order', '--no-shrink');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/\nlevels: any design: FAIL, validation: not declared\n/);
    expect(bad.stdout).toMatch(/\nfirst budget that breaks a principle: \d+; budgets that break one: [\d., ]+\n?$/);
  }, 60_000);

  it('constants of an any design: one sentence of what the probe can and cannot infer, exit 2', () => {
    const r = cli('constants', '--stdio', NEWEST);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /declares a design of its own \("profiles": \["any"\]\), and the probe infers only tiered's constants .*: of an any design it can infer nothing/,
    );
  }, 60_000);

  it('matrix: each run with the levels it reached, in its own words', () => {
    const a = join(tmp, 'a.json');
    const b = join(tmp, 'b.json');
    expect(cli('run', '--stdio', NEWEST, '--json', a, '--quiet').status).toBe(0);
    expect(cli('run', '--json', b, '--quiet', '--properties', '0').status).toBe(0);
    const m = cli('matrix', a, b);
    expect(m.status).toBe(0);
    expect(m.stdout).toMatch(/design-newest-fit 1\.0\.0 .*\n\s+levels: any design: PASS, validation: not declared\n/);
    expect(m.stdout).toMatch(/ctxconform-reference .*\n\s+levels: any design: PASS, tiered and ranked: PASS, validation: PASS\n/);
  }, 60_000);

  it('help COMMAND prints what COMMAND --help prints', () => {
    for (const command of ['run', 'sweep', 'shadow']) {
      const a = cli('help', command);
      const b = cli(command, '--help');
      expect(a.status).toBe(0);
      expect(a.stdout).toBe(b.stdout);
      expect(a.stdout).toMatch(new RegExp(`^usage: ctxconform ${command} `));
    }
  });
});
