/**
 * The case loader on small fixture corpora written to a temp dir: each kind of
 * problem is reported as file:line:col with the position of the offending
 * node, and `ctxconform validate` exits 2 and prints them.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { BUNDLED_CASES_DIR, formatProblem, loadCorpus } from '../../judging/cases/load.js';
import { globMatcher } from '../../judging/cases/filter.js';
import { main } from '../../cli/main.js';
import { CASE_EXEMPT_PREFIXES, isCaseExempt, specRequirements } from '../../vocabulary/spec.js';
import { cli as cliBin } from '../cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;

const GOOD = `description: A good case that the reference passes.
requirements: [EXP-1]
profile: tiered
since: v1
tags: [fixture]
request:
  now: 1000
  budget: 100
  blocks:
    - { block_id: b-1, source: coverage, content: hello, priority: 1 }
expect:
  included: [b-1]
`;

function corpus(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctxc-cases-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

function problemsOf(files: Record<string, string>): string[] {
  const dir = corpus(files);
  return loadCorpus(dir).problems.map((p) => formatProblem(p).slice(dir.length + 1));
}

describe('loadCorpus', () => {
  it('loads a good case with its id from the path, defaults filled in', () => {
    const dir = corpus({ 'area/good.yaml': GOOD, 'README.md': '# docs are not cases\n' });
    const { cases, problems } = loadCorpus(dir);
    expect(problems).toEqual([]);
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({ id: 'area/good', file: join(dir, 'area/good.yaml'), capabilities: [], tags: ['fixture'], profile: 'tiered' });
  });

  it('sorts cases by id', () => {
    const dir = corpus({ 'b/x.yaml': GOOD, 'a/z.yaml': GOOD, 'a/y.yaml': GOOD });
    expect(loadCorpus(dir).cases.map((c) => c.id)).toEqual(['a/y', 'a/z', 'b/x']);
  });

  it('reports a YAML syntax error at its position', () => {
    expect(problemsOf({ 'a/bad.yaml': 'description: ok\nrequirements: [EXP-1\nprofile: tiered\n' })).toEqual([
      expect.stringMatching(/^a\/bad\.yaml:\d+:\d+: YAML syntax error: /),
    ]);
    const [p] = problemsOf({ 'a/tab.yaml': 'description: x\n\tprofile: tiered\n' });
    expect(p).toMatch(/^a\/tab\.yaml:2:1: YAML syntax error/);
  });

  it('reports a schema violation at the offending value', () => {
    const text = GOOD.replace('profile: tiered', 'profile: greedy');
    expect(problemsOf({ 'a/p.yaml': text })).toEqual(['a/p.yaml:3:10: profile: must be one of "tiered", "ranked", "any"']);
    const wrongType = GOOD.replace('  included: [b-1]', '  estimated_tokens: "ten"');
    expect(problemsOf({ 'a/t.yaml': wrongType })).toEqual(['a/t.yaml:12:21: expect.estimated_tokens: must be integer']);
  });

  it('reports an unknown member at its key, nested or at the top', () => {
    expect(problemsOf({ 'a/u.yaml': GOOD + '  bogus: 1\n' })).toEqual(['a/u.yaml:13:3: unknown member "expect.bogus" (not in the case schema)']);
    expect(problemsOf({ 'a/v.yaml': 'id: nope\n' + GOOD })).toEqual(['a/v.yaml:1:1: unknown member "id" (not in the case schema)']);
  });

  it('reports a missing required member at the enclosing map', () => {
    const text = GOOD.replace('profile: tiered\n', '');
    expect(problemsOf({ 'a/m.yaml': text })).toEqual(['a/m.yaml:1:1: missing required member "profile"']);
  });

  it("requires since, a spec version no later than the kit's SPEC.md", () => {
    expect(problemsOf({ 'a/m.yaml': GOOD.replace('since: v1\n', '') })).toEqual(['a/m.yaml:1:1: missing required member "since"']);
    expect(problemsOf({ 'a/l.yaml': GOOD.replace('since: v1', 'since: v2') })).toEqual(["a/l.yaml:4:8: since: v2 is later than this kit's SPEC.md (v1)"]);
    expect(problemsOf({ 'a/n.yaml': GOOD.replace('since: v1', 'since: "1.0"') })).toEqual(['a/n.yaml:4:8: since: must match pattern "^v[1-9][0-9]*$"']);
    expect(problemsOf({ 'a/i.yaml': GOOD.replace('since: v1', 'since: 1') })).toEqual(['a/i.yaml:4:8: since: must be string']);
    expect(loadCorpus(corpus({ 'a/g.yaml': GOOD })).cases[0]!.since).toBe('v1');
  });

  it('reports a requirement id that SPEC.md does not define, at that item', () => {
    const text = GOOD.replace('requirements: [EXP-1]', 'requirements: [EXP-1, EXP-99]');
    expect(problemsOf({ 'a/r.yaml': text })).toEqual(['a/r.yaml:2:23: requirement EXP-99 is not defined in SPEC.md']);
  });

  it('refuses aliases and anchors, so an alias bomb never expands', () => {
    const bomb = [
      'description: An alias bomb must be refused, not expanded.',
      'requirements: [EXP-1]',
      'profile: tiered',
      'x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
      ...Array.from({ length: 8 }, (_, i) => `x${i + 1}: &a${i + 1} [*a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}]`),
      'request: *a8',
      'expect: { error: invalid_request }',
    ].join('\n');
    const problems = problemsOf({ 'a/bomb.yaml': bomb });
    expect(problems[0]).toBe('a/bomb.yaml:4:5: YAML anchor &a0 is not allowed in a case');
    expect(problems).toContain('a/bomb.yaml:5:10: YAML alias *a0 is not allowed in a case (write the value out)');
    expect(problems.every((p) => /YAML (alias|anchor)/.test(p))).toBe(true);
  });

  it('refuses duplicate keys', () => {
    const [p] = problemsOf({ 'a/d.yaml': GOOD.replace('profile: tiered', 'profile: tiered\nprofile: ranked') });
    expect(p).toMatch(/^a\/d\.yaml:4:1: YAML syntax error: Map keys must be unique/);
  });

  it('refuses an upper-case path segment, so no two ids differ only in case (they would collide on a case-insensitive checkout)', () => {
    // Written as two directories so the test works on any file system.
    const dir = corpus({ 'A/x.yaml': GOOD, 'a/x.yaml': GOOD });
    const { cases, problems } = loadCorpus(dir);
    expect(problems.map((p) => formatProblem(p).slice(dir.length + 1))).toEqual([
      'A/x.yaml:1:1: case id "A/x": each path segment must match ^[a-z0-9][a-z0-9_-]*$ (got "A")',
    ]);
    expect(cases.map((c) => c.id)).toEqual(['a/x']);
  });

  it('reports a file that is not .yaml, and an id with characters that are not allowed', () => {
    expect(problemsOf({ 'a/x.yml': GOOD, 'a/x.json': '{}' })).toEqual([
      'a/x.json:1:1: not a case: case files end in .yaml',
      'a/x.yml:1:1: not a case: case files end in .yaml (not .yml)',
    ]);
    expect(problemsOf({ 'a/Has Space.yaml': GOOD })[0]).toMatch(/^a\/Has Space\.yaml:1:1: case id "a\/Has Space": each path segment must match/);
  });

  it('checks what the schema cannot: capabilities a matcher or the request needs, error with result matchers, profile mismatch', () => {
    expect(problemsOf({ 'a/w.yaml': GOOD + '  truncated: false\n' })).toEqual([
      'a/w.yaml:13:14: expect.truncated needs the capability working_context in capabilities',
    ]);
    const pinned = GOOD.replace('priority: 1 }', 'priority: 1, pinned: true }');
    expect(problemsOf({ 'a/p.yaml': pinned })).toEqual(['a/p.yaml:1:1: the request uses a pinned block, so capabilities must list pinned (SPEC section 8)']);
    const both = GOOD + '  error: invalid_request\n';
    expect(problemsOf({ 'a/e.yaml': both })).toEqual([
      'a/e.yaml:12:13: expect.included cannot be checked when expect.error is set (an error answer has no result)',
    ]);
    const ranked = GOOD.replace('profile: tiered', 'profile: ranked');
    expect(problemsOf({ 'a/r.yaml': ranked })).toEqual(['a/r.yaml:7:3: the request runs profile tiered but the case declares profile ranked']);
    const rankedCaps = ranked
      .replace('  now: 1000', '  profile: ranked\n  now: 1000')
      .replace('tags: [fixture]', 'capabilities: [working_context]\ntags: [fixture]');
    expect(problemsOf({ 'a/rc.yaml': rankedCaps })).toEqual(['a/rc.yaml:5:15: capabilities apply to profile tiered only (RANK-7)']);
  });

  it('walks a symlink loop once instead of recursing forever', () => {
    const dir = corpus({ 'a/good.yaml': GOOD });
    symlinkSync(dir, join(dir, 'a', 'loop'));
    expect(loadCorpus(dir).cases.map((c) => c.id)).toEqual(['a/good']);
  });

  it('follows a symbolic link to a case file inside the folder, and refuses one that leads out of it, naming the file', () => {
    const dir = corpus({ 'a/good.yaml': GOOD, 'b/kept.md': 'notes' });
    symlinkSync(join(dir, 'a', 'good.yaml'), join(dir, 'a', 'again.yaml'));
    const outside = corpus({ 'x.yaml': GOOD });
    symlinkSync(join(outside, 'x.yaml'), join(dir, 'a', 'out.yaml'));
    symlinkSync(outside, join(dir, 'linked'));
    const { cases, problems } = loadCorpus(dir);
    expect(cases.map((c) => c.id)).toEqual(['a/again', 'a/good']);
    expect(problems.map((p) => formatProblem(p).slice(dir.length + 1))).toEqual([
      `a/out.yaml:1:1: a symbolic link out of the cases folder (to ${join(outside, 'x.yaml')}): refused, a case file is read from inside the folder only`,
      `linked:1:1: a symbolic link out of the cases folder (to ${outside}): not walked, cases are read from inside the folder only`,
    ]);
  });

  it('refuses a case file over 512 KiB and a mapping over 10,000 keys, at the file and at the mapping', () => {
    const many = `description: keys\nrequest:\n${Array.from({ length: 10_001 }, (_, i) => `  k${i}: 1\n`).join('')}`;
    const tenThousand = `description: keys\nrequest:\n${Array.from({ length: 10_000 }, (_, i) => `  k${i}: 1\n`).join('')}`;
    const p = problemsOf({ 'a/big.yaml': `description: "${'x'.repeat(512 * 1024)}"\n`, 'a/many.yaml': many, 'a/ten.yaml': tenThousand });
    expect(p[0]).toBe(
      'a/big.yaml:1:1: 524,304 bytes: a case file holds at most 524,288 bytes (512 KiB); replay a larger request from JSON lines (ctxconform replay)',
    );
    expect(p[1]).toBe("a/many.yaml:3:3: a mapping of 10,001 keys: a case file's mapping holds at most 10,000");
    // At the limit the keys are checked (and the case fails on its schema, not on its size).
    expect(p.slice(2).every((x) => x.startsWith('a/ten.yaml:') && !x.includes('keys:'))).toBe(true);
  });

  it('sends YAML .nan and .inf through as NaN and Infinity', () => {
    const dir = corpus({ 'v/nan.yaml': GOOD.replace('now: 1000', 'now: .nan').replace('  included: [b-1]', '  error: invalid_request') });
    const { cases, problems } = loadCorpus(dir);
    expect(problems).toEqual([]);
    expect(Number.isNaN((cases[0]!.request as { now: number }).now)).toBe(true);
  });

  it('resolves the bundled corpus next to the package, not the working directory', () => {
    expect(BUNDLED_CASES_DIR).toBe(join(ROOT, 'cases'));
  });
});

describe('SPEC ids', () => {
  it('parses every bold-id bullet of SPEC.md with its section and text', () => {
    const reqs = specRequirements();
    const ids = reqs.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('TIER-4');
    const exp1 = reqs.find((r) => r.id === 'EXP-1')!;
    expect(exp1.section).toMatch(/Profile `tiered`/);
    expect(exp1.text).toMatch(/^A block is expired exactly when .* never expires\.$/);
    expect(CASE_EXEMPT_PREFIXES).toEqual(['PROTO', 'MAPI', 'PROBE', 'DECL', 'LVL', 'DES', 'SHD']);
    // The any level's ids its properties and the harness prove (ANY-12 says which), and no other of its ids.
    expect(ids.filter((id) => id.startsWith('ANY-') && isCaseExempt(id))).toEqual(['ANY-7', 'ANY-8', 'ANY-9', 'ANY-13']);
  });

  it('reads continuation lines and stops at the next bullet or heading', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-spec-'));
    const spec = join(dir, 'SPEC.md');
    writeFileSync(spec, '# T\n## 1. One\n- **AB-1** first\n  continued.\n- **AB-2** second\n\nprose\n### 1.1 Sub\n- **CD-10** third\n- not an id\n');
    expect(specRequirements(spec)).toEqual([
      { id: 'AB-1', section: '1. One', text: 'first continued.' },
      { id: 'AB-2', section: '1. One', text: 'second' },
      { id: 'CD-10', section: '1.1 Sub', text: 'third' },
    ]);
  });
});

describe('globMatcher', () => {
  it('matches * within a segment, ** across, and comma-separated alternatives', () => {
    expect(globMatcher('expiry/*')('expiry/boundary-equal')).toBe(true);
    expect(globMatcher('expiry/*')('expiry/a/b')).toBe(false);
    expect(globMatcher('**')('expiry/a/b')).toBe(true);
    expect(globMatcher('*/budget-?')('starvation/budget-1')).toBe(true);
    expect(globMatcher('lesson/*, ranked/stable-ties')('ranked/stable-ties')).toBe(true);
    expect(globMatcher('a.b')('aXb')).toBe(false);
  });
});

describe('the validate, list and coverage commands', () => {
  /** In process through the dispatcher (fast); one test goes through bin/ for the real exit status. */
  async function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
    try {
      const status = await main(args);
      return { status, stdout: out.join('\n') + '\n', stderr: err.join('\n') + '\n' };
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  }

  it('validate exits 2 and prints file:line:col for a bad corpus (through bin/ctxconform.mjs)', () => {
    const dir = corpus({ 'a/good.yaml': GOOD, 'a/bad.yaml': GOOD + '  bogus: 1\n' });
    const r = cliBin('validate', '--cases', dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'a/bad.yaml')}:13:3: unknown member "expect.bogus"`);
    expect(r.stderr).toMatch(/1 problem in /);
  });

  it('validate exits 0 with a count line for a good corpus, and 2 for a missing directory', async () => {
    const dir = corpus({ 'a/good.yaml': GOOD });
    const ok = await cli('validate', '--cases', dir);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^1 case valid in /);
    const missing = await cli('validate', '--cases', join(dir, 'nope'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/not a directory/);
  });

  it('list prints ids with requirement ids, filtered by glob', async () => {
    const dir = corpus({ 'a/one.yaml': GOOD, 'b/two.yaml': GOOD.replace('[EXP-1]', '[EXP-1, TIER-4]') });
    const r = await cli('list', '--cases', dir, '--filter', 'b/*');
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['b/two  EXP-1 TIER-4']);
  });

  it('coverage exits 1 and names the uncovered ids for a corpus that misses some; 0 for the bundled corpus', async () => {
    const dir = corpus({ 'a/one.yaml': GOOD });
    const r = await cli('coverage', '--cases', dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^EXP-1 +1 +a\/one$/m);
    expect(r.stdout).toMatch(/^TIER-4 +0 +UNCOVERED$/m);
    expect(r.stdout).toMatch(/Uncovered: .*TIER-4/);
    const json = JSON.parse((await cli('coverage', '--cases', dir, '--json')).stdout) as { uncovered: string[] };
    expect(json.uncovered).toContain('TIER-4');
    expect(json.uncovered.some((id) => /^(PROTO|MAPI|PROBE)-/.test(id))).toBe(false);
    expect((await cli('coverage')).status).toBe(0);
  });
});
