import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../cli/run.js';
import { run as contract } from '../../cli/contract.js';
import { UsageError } from '../../cli/usage.js';
import type { Report } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { CLAUSES, DIRECTED } from '../../contract/index.js';
import { startMemoryService, type FakeService } from '../fixtures/memory-service/server.js';

let service: FakeService | undefined;
let out: string[] = [];
beforeEach(() => {
  out = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await service?.close();
  service = undefined;
});

describe('ctxconform run --memory-api', () => {
  it('skips every golden case and reports the contract, all passing for the faithful service', async () => {
    service = await startMemoryService({ apiKey: 'k' });
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-mapi-')), 'report.json');
    const code = await run(['--memory-api', service.url, '--api-key', 'k', '--properties', '5', '--seed', '3', '--json', json, '--quiet']);
    expect(code, out.join('\n')).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.implementation).toEqual({ name: 'memory-api', version: 'unknown', profiles: ['working-context-api'], capabilities: [] });
    expect(report.run).toMatchObject({ adapter: 'memory-api', target: service.url, seed: 3, properties_runs: 5 });
    const golden = report.cases.filter((c) => c.kind === 'case');
    expect(golden.length).toBeGreaterThan(0);
    expect(golden.every((c) => c.status === 'skip' && /profile \w+ is not declared/.test(c.message ?? ''))).toBe(true);
    const contract = report.cases.filter((c) => c.kind === 'contract');
    expect(contract).toHaveLength(CLAUSES.length);
    expect(contract.every((c) => c.status === 'pass')).toBe(true);
    // Each clause says how many of the exchanges (the directed ones + 5 random) put it to the test.
    for (const c of contract) expect(c.exchanges_tested, c.id).toBeGreaterThan(0);
    expect(contract.find((c) => c.id === 'contract/answers')).toMatchObject({ num_runs: DIRECTED.length + 5, exchanges_tested: DIRECTED.length + 5 });
    expect(report.cases.some((c) => c.kind === 'property')).toBe(false);
    expect(report.summary.total).toBe(report.cases.length);
  });

  it('fails the run on a broken clause, with a rerun command that does not leak the key', async () => {
    service = await startMemoryService({ variant: 'cut-content', apiKey: 'top-secret' });
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-mapi-')), 'report.json');
    const code = await run(['--memory-api', service.url, '--api-key', 'top-secret', '--cases', 'none', '--properties', '0', '--json', json, '--quiet']);
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    const failing = report.cases.filter((c) => c.status !== 'pass');
    expect(failing.map((c) => c.id)).toEqual(['contract/verbatim-content']);
    expect(failing[0]!.message).toMatch(/^MAPI-10 /);
    expect(failing[0]!.rerun).toBe(
      `npx ctxconform run --memory-api ${service.url} --api-key "$MEMORY_API_KEY" --cases none --filter contract/verbatim-content --properties 0 --seed 1 --timeout 5000`,
    );
    expect(readFileSync(json, 'utf8')).not.toContain('top-secret');
    expect(out.join('\n')).toContain('MAPI-10');
  });

  it('--repeat runs the contract again in fresh scopes: a clause judged differently between rounds is flaky and fails the run', async () => {
    // Faithful in the first contract run it sees, wrong about truncated (MAPI-4) in later ones.
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-mapi-')), 'report.json');
    const once = await startMemoryService({ variant: 'wrong-truncated-after-first-run' });
    try {
      // Run once, it passes: the fault shows only on a second run.
      expect(await run(['--memory-api', once.url, '--cases', 'none', '--properties', '0', '--json', json, '--quiet'])).toBe(0);
    } finally {
      await once.close();
    }
    service = await startMemoryService({ variant: 'wrong-truncated-after-first-run' });
    const md = join(dirname(json), 'report.md');
    expect(await run(['--memory-api', service.url, '--cases', 'none', '--properties', '0', '--repeat', '2', '--json', json, '--markdown', md, '--quiet'])).toBe(
      1,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    const flaky = resultsOf(report.cases, 'contract').filter((c) => c.status === 'flaky');
    expect(flaky.map((c) => c.id)).toEqual(['contract/truncated-flag']);
    expect(flaky[0]!.requirements).toEqual(expect.arrayContaining(['MAPI-4', 'REQ-2']));
    expect(flaky[0]!.message).toMatch(/2 times gave 2 different answers/);
    expect(flaky[0]!.answers!.map((a) => [a.repeats, a.status])).toEqual([
      [[1], 'pass'],
      [[2], 'fail'],
    ]);
    expect(flaky[0]!.rerun).toMatch(/--repeat 2$/);
    expect(report.summary.flaky).toBe(1);
    // How many exchanges tested it: the round that tested it most; the clause column shows its MAPI id alone.
    expect(flaky[0]!.exchanges_tested).toBeGreaterThan(1);
    expect(out.join('\n')).toMatch(new RegExp(`^MAPI-4 +contract/truncated-flag +flaky +${flaky[0]!.exchanges_tested}$`, 'm'));
    expect(readFileSync(md, 'utf8')).toContain(`| MAPI-4 | \`contract/truncated-flag\` | 🎲 flaky | ${flaky[0]!.exchanges_tested} |  |`);
    // Every other clause was judged alike in both rounds.
    expect(report.cases.filter((c) => c.kind === 'contract' && c.status !== 'flaky').every((c) => c.status === 'pass')).toBe(true);
  });

  it('shows per clause how many exchanges tested it, in the terminal and in the Markdown report', async () => {
    service = await startMemoryService();
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-mapi-'));
    const code = await run([
      '--memory-api',
      service.url,
      '--cases',
      'none',
      '--properties',
      '0',
      '--marker',
      '',
      '--json',
      join(dir, 'r.json'),
      '--markdown',
      join(dir, 'r.md'),
      '--quiet',
    ]);
    // Nothing the unmarked task finds: untested clauses skip, and a skip fails nothing.
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Report;
    const byId = new Map(report.cases.map((c) => [c.id, c]));
    const text = out.join('\n');
    const n = DIRECTED.length;
    expect(text).toContain(`contract clauses (${n} exchanges; "tested by": the exchanges that put the clause to the test):`);
    expect(text).toMatch(new RegExp(`MAPI-1 +contract/answers +pass +${n}\\n`));
    expect(text).toMatch(/MAPI-10 +contract\/verbatim-content +skip +0 +untested: no ingested memory came back as a segment, so no content was compared/);
    expect(byId.get('contract/verbatim-content')).toMatchObject({ status: 'skip', exchanges_tested: 0 });
    const md = readFileSync(join(dir, 'r.md'), 'utf8');
    expect(md).toContain('### Contract clauses');
    expect(md).toContain(`| MAPI-1 | \`contract/answers\` | ✅ pass | ${n} |  |`);
    expect(md).toMatch(
      /\| MAPI-10 \| `contract\/verbatim-content` \| ⏭️ skip \| 0 \| untested: no ingested memory came back as a segment, so no content was compared \|/,
    );
  });

  it('--task and --marker reach the service and the rerun command; bad use is a usage error', async () => {
    service = await startMemoryService({ variant: 'cut-content' });
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-mapi-')), 'report.json');
    expect(
      await run([
        '--memory-api',
        service.url,
        '--cases',
        'none',
        '--properties',
        '0',
        '--marker',
        'q9mark',
        '--task',
        'billing migration',
        '--json',
        json,
        '--quiet',
      ]),
    ).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    const failing = report.cases.filter((c) => c.status === 'fail');
    expect(failing.map((c) => c.id)).toEqual(['contract/verbatim-content']);
    expect(failing[0]!.rerun).toContain(`--task 'billing migration' --marker q9mark --cases none`);
    const assembled = service.seen.filter((s) => s.path === '/v0/assemble-context').map((s) => (s.body as { task: string }).task);
    expect(new Set(assembled)).toEqual(new Set(['billing migration']));
    await expect(run(['--task', 'x'])).rejects.toThrow(/--task goes with --memory-api/);
    await expect(run(['--marker', 'x'])).rejects.toThrow(/--marker goes with --memory-api/);
    await expect(run(['--memory-api', service.url, '--marker', 'two words'])).rejects.toThrow(/--marker needs one token without spaces/);
  });

  it('--filter picks contract clauses', async () => {
    service = await startMemoryService();
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-mapi-')), 'report.json');
    expect(
      await run([
        '--memory-api',
        service.url,
        '--cases',
        'none',
        '--properties',
        '0',
        '--filter',
        'contract/schema,contract/deterministic',
        '--json',
        json,
        '--quiet',
      ]),
    ).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.cases.map((c) => c.id)).toEqual(['contract/schema', 'contract/deterministic']);
  });

  it('usage errors: another target, a key alone, a URL that is not http', async () => {
    await expect(run(['--memory-api', 'http://127.0.0.1:1', '--module', 'x.mjs'])).rejects.toThrow(UsageError);
    await expect(run(['--api-key', 'k'])).rejects.toThrow(/--api-key goes with --memory-api/);
    await expect(run(['--memory-api', 'ftp://example.com'])).rejects.toThrow(/needs an http\(s\) URL/);
  });
});

describe('ctxconform contract --memory-api', () => {
  it('judges the contract alone: one result per clause, the run alias giving the same clauses with the skipped golden cases', async () => {
    service = await startMemoryService({ apiKey: 'k' });
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-contract-'));
    expect(await contract(['--memory-api', service.url, '--api-key', 'k', '--properties', '5', '--seed', '3', '--json', join(dir, 'c.json'), '--quiet'])).toBe(
      0,
    );
    const alone = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')) as Report;
    expect(alone.cases.map((c) => c.id)).toEqual(CLAUSES.map((c) => `contract/${c.name}`));
    expect(alone.cases.every((c) => c.kind === 'contract' && c.status === 'pass')).toBe(true);
    expect(alone.run).toMatchObject({ adapter: 'memory-api', target: service.url, seed: 3, properties_runs: 5, shard: null, filter: null });
    expect(alone.summary).toMatchObject({ total: CLAUSES.length, pass: CLAUSES.length });
    expect(await run(['--memory-api', service.url, '--api-key', 'k', '--properties', '5', '--seed', '3', '--json', join(dir, 'r.json'), '--quiet'])).toBe(0);
    const aliased = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Report;
    const clauses = (r: Report) => r.cases.filter((c) => c.kind === 'contract').map((c) => [c.id, c.status, c.exchanges_tested, c.num_runs]);
    expect(clauses(aliased)).toEqual(clauses(alone));
    expect(aliased.cases.filter((c) => c.kind === 'case').length).toBeGreaterThan(0);
  });

  it('a broken clause fails it (exit 1), rerun through contract with the key named, not written', async () => {
    service = await startMemoryService({ variant: 'cut-content', apiKey: 'top-secret' });
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-contract-')), 'report.json');
    expect(await contract(['--memory-api', service.url, '--api-key', 'top-secret', '--properties', '0', '--repeat', '2', '--json', json, '--quiet'])).toBe(1);
    const failing = (JSON.parse(readFileSync(json, 'utf8')) as Report).cases.filter((c) => c.status !== 'pass');
    expect(failing.map((c) => c.id)).toEqual(['contract/verbatim-content']);
    expect(failing[0]!.rerun).toBe(
      `npx ctxconform contract --memory-api ${service.url} --api-key "$MEMORY_API_KEY" --filter contract/verbatim-content --properties 0 --seed 1 --timeout 5000 --repeat 2`,
    );
    expect(readFileSync(json, 'utf8')).not.toContain('top-secret');
    expect(out.join('\n')).toMatch(/^FAIL: 12 pass, 1 fail, 0 error, 0 timeout, 0 crash, 0 flaky, 0 skip of 13 in \d+\.\d\d s$/m);
  });

  it('its help lists the service and the contract options, and none of what only golden cases take', async () => {
    expect(await contract(['--help'])).toBe(0);
    const help = out.join('\n');
    expect(help).toMatch(/^usage: ctxconform contract --memory-api URL \[options\]$/m);
    expect(help).toMatch(/^ {4}--require-tested IDS {2}all, or clause ids/m);
    expect(help).toMatch(/^ {2}--timeout MS {12}per request/m);
    for (const absent of ['--cases', '--spec', '--shard', '--manifest', '--concurrency', '--save-counterexamples', '--impl'])
      expect(help).not.toContain(absent);
  });

  it('usage errors: no service, an assembler, what only golden cases take, a property filter', async () => {
    await expect(contract([])).rejects.toThrow(/^name the implementation to judge: --memory-api URL$/);
    await expect(contract(['--stdio', 'python3 impl.py'])).rejects.toThrow(/^--stdio is an assembler: ctxconform run drives it, this command does not$/);
    await expect(contract(['--memory-api', 'http://127.0.0.1:1', '--cases', 'none'])).rejects.toThrow(/Unknown option '--cases'/);
    await expect(contract(['--memory-api', 'http://127.0.0.1:1', '--filter', 'property/budget'])).rejects.toThrow(/^--filter /);
    await expect(contract(['--memory-api', 'http://127.0.0.1:1', '--marker', 'two words'])).rejects.toThrow(/^--marker needs one token without spaces/);
    await expect(contract(['--api-key', 'k'])).rejects.toThrow(/^--api-key goes with --memory-api$/);
  });
});
