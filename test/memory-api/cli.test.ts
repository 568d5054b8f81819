import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../conformance/cli/run.js';
import { UsageError } from '../../conformance/cli/main.js';
import type { Report } from '../../conformance/types.js';
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
    expect(contract).toHaveLength(12);
    expect(contract.every((c) => c.status === 'pass')).toBe(true);
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
    expect(failing[0]!.rerun).toBe(`npx ctxconform run --memory-api ${service.url} --api-key "$MEMORY_API_KEY" --cases none --filter contract/verbatim-content --properties 0 --seed 1 --timeout 5000`);
    expect(readFileSync(json, 'utf8')).not.toContain('top-secret');
    expect(out.join('\n')).toContain('MAPI-10');
  });

  it('--filter picks contract clauses', async () => {
    service = await startMemoryService();
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-mapi-')), 'report.json');
    expect(await run(['--memory-api', service.url, '--cases', 'none', '--properties', '0', '--filter', 'contract/schema,contract/deterministic', '--json', json, '--quiet'])).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.cases.map((c) => c.id)).toEqual(['contract/schema', 'contract/deterministic']);
  });

  it('usage errors: another target, a key alone, a URL that is not http', async () => {
    await expect(run(['--memory-api', 'http://127.0.0.1:1', '--module', 'x.mjs'])).rejects.toThrow(UsageError);
    await expect(run(['--api-key', 'k'])).rejects.toThrow(/--api-key goes with --memory-api/);
    await expect(run(['--memory-api', 'ftp://example.com'])).rejects.toThrow(/needs an http\(s\) URL/);
  });
});
