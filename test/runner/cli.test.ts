/**
 * `ctxconform run` end to end, as a vendor's CI calls it: exit statuses,
 * what a failure prints, the JSON report against its schema, filter, shard,
 * baseline and properties.
 */
import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.js';
import { stringify } from 'yaml';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Report } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { KIT_VERSION } from '../../vocabulary/spec.js';
import { cli, CLI_SHELL, cliSpawn } from '../cli.js';
import type { CliRun } from '../cli.js';
import { FAULT_CASES } from '../fixtures/faulty/cases.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The fault cases as a case directory, so the CLI loads them like any corpus.
const casesDir = join(tmp, 'cases');
for (const c of FAULT_CASES) {
  const file = join(casesDir, `${c.id}.yaml`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    stringify({
      description: c.description,
      requirements: c.requirements,
      profile: c.profile,
      since: c.since,
      tags: ['fault'],
      request: c.request,
      expect: c.expect,
    }),
  );
}

/** `ctxconform serve --port 0 ...args` started, with the URL it prints. */
async function serve(...args: string[]): Promise<{ server: ChildProcess; url: string }> {
  const server = cliSpawn(['serve', '--port', '0', ...args]);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { server, url };
}

const readReport = (file: string): Report => JSON.parse(readFileSync(file, 'utf8')) as Report;

it('a reader that stops early (ctxconform list | head -1) ends the command quietly, exit 0', () => {
  const r = spawnSync('bash', ['-c', `${CLI_SHELL} list | head -1; exit \${PIPESTATUS[0]}`], { cwd: root, encoding: 'utf8' });
  expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
  expect(r.stdout.split('\n')[0]).toMatch(/^[a-z-]+\/[a-z0-9-]+ /);
  expect(r.status).toBe(0);
}, 30_000);

it('a run that tests nothing fails (exit 1, NOTHING TESTED with the commonest skip reasons); an empty shard does not', () => {
  const none = cli('run', '--cases', 'none', '--properties', '0');
  expect(none.stdout).toMatch(/^NOTHING TESTED \(nothing was selected\): 0 pass/m);
  expect(none.status).toBe(1);
  const manifest = join(tmp, 'ranked-only.json');
  writeFileSync(manifest, JSON.stringify({ name: 'r', version: '1', profiles: ['ranked'], capabilities: [] }));
  const skipped = cli('run', '--manifest', manifest, '--filter', 'tiers/*', '--properties', '0');
  expect(skipped.stdout).toMatch(/^NOTHING TESTED \(all \d+ selected were skipped: \d+ × profile tiered is not declared by the implementation\)/m);
  expect(skipped.status).toBe(1);
  // Three cases over four shards: one shard is empty, and that is the split, not a gate that tested nothing.
  const shard = cli('run', '--filter', 'tiers/budgets-at-10,tiers/budgets-at-7,expiry/boundary-equal', '--properties', '0', '--shard', '4/4');
  expect(shard.stdout).toMatch(/^PASS: 0 pass, .* of 0/m);
  expect(shard.status).toBe(0);
});

it('a failing run piped into head -1 still writes its report and exits 1: a closed pipe never turns a verdict into 0', () => {
  const json = join(tmp, 'piped.json');
  const failing = join(root, 'test/fixtures/broken/ceil-estimate.ts');
  const cmd = `${CLI_SHELL} run --module "${failing}" --properties 0 --json "${json}" | head -1; exit \${PIPESTATUS[0]}`;
  const r = spawnSync('bash', ['-c', cmd], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
  expect(r.status).toBe(1);
  expect((JSON.parse(readFileSync(json, 'utf8')) as Report).summary.fail).toBeGreaterThan(0);
}, 60_000);

/** One `run` against the reference over the fault cases, with a JSON report: its output is read by more than one test below. */
let referenceRun: { r: CliRun; json: string } | undefined;
function runAgainstReference(): { r: CliRun; json: string } {
  if (!referenceRun) {
    const json = join(tmp, 'ok.json');
    referenceRun = { r: cli('run', '--cases', casesDir, '--properties', '0', '--json', json), json };
  }
  return referenceRun;
}

describe('ctxconform run', () => {
  it('a rerun command keeps the environment given with --env, a secret by name only, and reruns the same failure', () => {
    const fixture = join(root, 'test/fixtures/faulty/env-shift.mjs');
    const env = { ...process.env, API_TOKEN: 'from-the-shell' };
    const r = spawnSync(
      process.execPath,
      [
        join(root, 'bin/ctxconform.mjs'),
        'run',
        '--stdio',
        `node ${fixture}`,
        '--env',
        'ESTIMATE_SHIFT=1',
        '--env',
        'API_TOKEN=s3cret-value',
        '--cases',
        casesDir,
        '--properties',
        '0',
      ],
      // Run from a folder outside the kit, as a vendor runs it from their own repository.
      { encoding: 'utf8', env, cwd: tmp },
    );
    expect(r.status).toBe(1);
    const rerun = /rerun: (.*)$/m.exec(r.stdout)?.[1] ?? '';
    expect(rerun).toContain('--env ESTIMATE_SHIFT=1 --env API_TOKEN');
    expect(r.stdout).not.toContain('s3cret-value');
    // There `npx ctxconform` would ask the public registry: the line runs this kit's own bin instead.
    expect(rerun).toMatch(/^node \S*bin\/ctxconform\.mjs run /);
    // Pasted as printed into a shell that holds the token, from that folder: the same failure.
    const again = spawnSync('bash', ['-c', rerun], { encoding: 'utf8', env, cwd: tmp });
    expect(again.status).toBe(1);
    expect(again.stdout).toMatch(/estimated_tokens: expected \d+, got \d+/);
    // Without the variable the same case passes: it is the environment the failure lives in.
    const plain = spawnSync('bash', ['-c', rerun.replace('--env ESTIMATE_SHIFT=1 ', '')], { encoding: 'utf8', env, cwd: tmp });
    expect(plain.status).toBe(0);
  });

  it('exit 0 against the reference; the JSON report validates and names the kit', () => {
    const { r, json } = runAgainstReference();
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/PASS: 6 pass, 0 fail/);
    expect(r.stdout).toMatch(/^fault\s+6\s+0\s+0\s+0\s+0\s+0\s+6$/m);
    const report = readReport(json);
    const valid = validators.report();
    expect(valid(report), formatErrors(valid.errors).join('\n')).toBe(true);
    expect(report.kit).toEqual({ name: 'ctxconform', version: KIT_VERSION, spec: 'v1' });
    expect(report.run?.adapter).toBe('reference');
    expect(report.summary).toEqual({ total: 6, pass: 6, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 0 });
  });

  it('exit 1 for a failing implementation, printing id, requirements, expected, actual and the rerun command', () => {
    const json = join(tmp, 'fail.json');
    const mod = join(root, 'test/fixtures/broken/chars-per-token-3.ts');
    const r = cli('run', '--module', mod, '--cases', casesDir, '--properties', '0', '--json', json);
    expect(r.status).toBe(1);
    // 3 chars per token: w2 costs 5 > working 4, overflows into the pool of 9; estimated 5, not 4.
    expect(r.stdout).toContain('FAIL fault/c-budget  [TIER-4, TIER-6, TIER-7]');
    expect(r.stdout).toMatch(/estimated_tokens: expected 4, got 5/);
    expect(r.stdout).toContain(`rerun: npx ctxconform run --module ${mod} --cases ${casesDir} --filter fault/c-budget --properties 0`);
    const c = resultsOf(readReport(json).cases, 'case').find((x) => x.id === 'fault/c-budget')!;
    expect(c.status).toBe('fail');
    expect(c.expected).toEqual({ estimated_tokens: 4 });
    expect(c.actual).toEqual({ estimated_tokens: 5 });
    expect(c.rerun).toContain('--filter fault/c-budget');
  });

  it('the rerun command reruns just that case', () => {
    const mod = join(root, 'test/fixtures/broken/chars-per-token-3.ts');
    const r = cli('run', '--module', mod, '--cases', casesDir, '--filter', 'fault/c-budget', '--properties', '0');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAIL: 0 pass, 1 fail, 0 error, 0 timeout, 0 crash, 0 skip of 1/);
  });

  it('a baseline that knows the failure: exit 0; the known id is listed', () => {
    const baseline = join(tmp, 'baseline.json');
    writeFileSync(baseline, JSON.stringify({ 'fault/c-budget': 'fail' }));
    const mod = join(root, 'test/fixtures/broken/chars-per-token-3.ts');
    const r = cli('run', '--module', mod, '--cases', casesDir, '--properties', '0', '--baseline', baseline);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1 known failure from the baseline: fault\/c-budget/);
  });

  it('a baseline entry whose case now passes fails the run (a baseline only shrinks)', () => {
    const baseline = join(tmp, 'stale.json');
    writeFileSync(baseline, JSON.stringify({ 'fault/a-single': 'fail' }));
    const r = cli('run', '--cases', casesDir, '--properties', '0', '--baseline', baseline);
    expect(r.stdout).toMatch(/baseline entries that now pass \(remove them\): fault\/a-single/);
    expect(r.stdout).toMatch(/FAIL \(1 stale baseline entry\): 6 pass/);
    expect(r.status).toBe(1);
  });

  it('--filter and --shard pick case ids; shards are disjoint and cover the run', () => {
    const ids = (args: string[]): string[] => {
      const json = join(tmp, `f-${args.join('_').replace(/\W/g, '')}.json`);
      expect(cli('run', '--cases', casesDir, '--properties', '0', '--json', json, ...args).status).toBe(0);
      return readReport(json).cases.map((c) => c.id);
    };
    // `?` is one character and `*` stays within a segment: b-expired and f-empty, not e-invalid.
    expect(ids(['--filter', 'fault/?-e*'])).toEqual(['fault/b-expired', 'fault/f-empty']);
    expect(ids(['--filter', 'fault/a-single,fault/d-*'])).toEqual(['fault/a-single', 'fault/d-order']);
    const a = ids(['--shard', '1/2']);
    const b = ids(['--shard', '2/2']);
    expect(a).toHaveLength(3);
    expect([...a, ...b].sort()).toEqual(FAULT_CASES.map((c) => c.id).sort());
  });

  it('--properties N runs the properties with the seed, as property/<name> results', () => {
    const json = join(tmp, 'props.json');
    const r = cli('run', '--cases', 'none', '--properties', '3', '--seed', '7', '--json', json);
    expect(r.status).toBe(0);
    const report = readReport(json);
    expect(report.cases.length).toBeGreaterThan(0);
    expect(report.cases.every((c) => c.id.startsWith('property/') && c.status === 'pass')).toBe(true);
    expect(report.run?.seed).toBe(7);
    expect(report.run?.properties_runs).toBe(3);
  });

  it.each([
    [['--stdio', 'cat', '--http', 'http://127.0.0.1:1'], /choose one implementation, not --stdio and --http/],
    [['--timeout', 'soon'], /--timeout needs an integer/],
    [['--shard', '3/2'], /--shard needs I\/N/],
    [['--impl', 'mine'], /--impl takes only "reference"/],
    [['--cases', '/no/such/dir'], /cannot read the cases/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['--manifest', '/no/such/manifest.json'], /cannot read the manifest/],
  ])('usage error %j: exit 2', async (args, message) => {
    // In process (the dispatcher is the same code the bin runs), to keep the suite fast.
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
    try {
      expect(await main(['run', '--properties', '0', ...args])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join('\n')).toMatch(message);
  });

  it('an implementation that dies on start: exit 2 with the reason', () => {
    const r = cli('run', '--stdio', `"${process.execPath}" test/fixtures/faulty/die-on-start.mjs`, '--cases', casesDir, '--properties', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot start .*exited with code 1.*cannot load the model file/s);
  });

  it('serve prints its URL, and run --http against it passes every case', async () => {
    const { server, url } = await serve();
    try {
      const r = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const c = cliSpawn(['run', '--http', url, '--cases', casesDir, '--properties', '0']);
        let stdout = '';
        c.stdout!.on('data', (d: Buffer) => (stdout += String(d)));
        c.on('exit', (status) => resolve({ status, stdout }));
      });
      expect(r.stdout).toMatch(/via http \(http:\/\/127\.0\.0\.1:\d+\)/);
      expect(r.stdout).toMatch(/PASS: 6 pass/);
      expect(r.status).toBe(0);
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('serve --capabilities declares and applies exactly those: markers on request, an unknown name refused', async () => {
    expect(cli('serve', '--capabilities', 'pinned,bogus').stderr).toMatch(/--capabilities: unknown bogus; known: .*omission_markers/);
    const { server, url } = await serve('--capabilities', 'pinned,omission_markers');
    try {
      expect(((await (await fetch(`${url}/describe`)).json()) as { capabilities: string[] }).capabilities).toEqual(['pinned', 'omission_markers']);
      const body = JSON.stringify({ now: 0, budget: 0, blocks: [{ block_id: 'a', source: 'memory', content: 'x', priority: 1 }] });
      const answer = (await (await fetch(`${url}/assemble`, { method: 'POST', body })).json()) as Record<string, unknown>;
      expect(answer).toEqual({
        context: '[memory \u00b7 a]\n[OMITTED: over token budget]',
        included: [],
        estimated_tokens: 0,
        total_budget: 0,
        omissions: [{ block_id: 'a', reason: 'tier budget exhausted; overflow pool exhausted' }],
      });
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('serve --manifest mirrors a tuned manifest: its profiles, capabilities and constants, declared and applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxconform-serve-'));
    const file = join(dir, 'tuned.json');
    const constants = {
      chars_per_token: 3,
      tier_fractions: { working: 50, episodic: 20, longterm: 20, knowledge: 10 },
      source_to_tier: { notes: 'knowledge' },
    };
    writeFileSync(file, JSON.stringify({ name: 'acme', version: '2.3.0', profiles: ['tiered'], capabilities: ['pinned'], constants }));
    expect(cli('serve', '--manifest', file, '--capabilities', 'pinned').stderr).toMatch(/give --capabilities or --manifest, not both/);
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ name: 'acme', version: '1', profiles: ['tiered'], capabilities: [], constants: { chars_per_token: 0 } }),
    );
    expect(cli('serve', '--manifest', join(dir, 'bad.json')).stderr).toMatch(/bad\.json is not valid: .*chars_per_token/);
    const { server, url } = await serve('--manifest', file);
    try {
      expect(await (await fetch(`${url}/describe`)).json()).toMatchObject({
        name: 'ctxconform-reference',
        profiles: ['tiered'],
        capabilities: ['pinned'],
        constants,
      });
      // 9 code points cost 3 tokens at 3 characters a token; at the spec's 4 they would cost 2.
      const body = JSON.stringify({ now: 0, budget: 100, blocks: [{ block_id: 'a', source: 'notes', content: 'nine char', priority: 1 }] });
      const answer = (await (await fetch(`${url}/assemble`, { method: 'POST', body })).json()) as Record<string, unknown>;
      expect(answer).toMatchObject({ included: ['a'], estimated_tokens: 3 });
    } finally {
      server.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('plain progress lines when CI=true', () => {
    // cli() runs the command with CI=true.
    const { r } = runAgainstReference();
    expect(r.stderr).toMatch(/^progress: \d+\/6/m);
    expect(r.stderr).not.toContain('\r');
  });
});
