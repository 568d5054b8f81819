/**
 * `ctxconform run --memory-api` and what a gate reads (SPEC section 16): the
 * closing line names every untested clause, `--require-tested` fails the run
 * on one, `--estimator` declares how the service counts tokens, and the
 * terminal names a fallback the run took (not only the JSON).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../cli/run.js';
import type { Report } from '../../protocol/types.js';
import { startMemoryService, type FakeService, type ServiceOptions } from '../fixtures/memory-service/server.js';

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

/** The run against a fresh fake: its exit code, its closing line and its JSON report. */
async function runAgainst(o: ServiceOptions, args: string[]): Promise<{ code: number; closing: string; report: Report; text: string }> {
  await service?.close();
  service = await startMemoryService(o);
  out = [];
  const json = join(mkdtempSync(join(tmpdir(), 'ctxc-gate-')), 'report.json');
  const code = await run(['--memory-api', service.url, '--cases', 'none', '--properties', '20', '--json', json, '--quiet', ...args]);
  const text = out.join('\n');
  const closing =
    text
      .split('\n')
      .filter((l) => /^(PASS|FAIL|NOTHING TESTED)/.test(l))
      .at(-1) ?? '';
  return { code, closing, report: JSON.parse(readFileSync(json, 'utf8')) as Report, text };
}

describe('untested clauses are loud', () => {
  it('a service whose hydrate hides every status: the run passes, and its closing line names the lifecycle clauses no exchange tested', async () => {
    const { code, closing, report } = await runAgainst({ variant: 'hydrate-hides-status' }, []);
    expect(code).toBe(0);
    expect(closing).toMatch(/^PASS: .*; untested: MAPI-11, MAPI-13$/);
    expect(report.cases.filter((c) => c.status === 'skip').map((c) => c.requirements[0])).toEqual(['MAPI-11', 'MAPI-13']);
  });

  it('--require-tested makes such a clause fail the run; a clause that was tested passes the gate', async () => {
    const required = await runAgainst({ variant: 'hydrate-hides-status' }, ['--require-tested', 'MAPI-11']);
    expect(required.code).toBe(1);
    expect(required.closing).toMatch(/^FAIL: .*; untested: MAPI-11, MAPI-13$/);
    // The reports say it too: the required clause is a failure there, naming the option.
    expect(required.report.cases.find((c) => c.requirements[0] === 'MAPI-11')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^MAPI-11 is required by --require-tested, and no exchange tested it/),
    });
    const tested = await runAgainst({ variant: 'hydrate-hides-status' }, ['--require-tested', 'MAPI-3,contract/verbatim-content']);
    expect(tested.code).toBe(0);
    const all = await runAgainst({}, ['--require-tested', 'all']);
    expect(all.code, all.text).toBe(0);
    expect(all.closing).toMatch(/^PASS: .* s$/);
  });

  it('a required clause --filter left out is not run, and fails the gate', async () => {
    const r = await runAgainst({}, ['--filter', 'contract/schema', '--require-tested', 'MAPI-11']);
    expect(r.code).toBe(1);
    expect(r.closing).toMatch(/^FAIL: .*; not run: MAPI-11$/);
    expect(r.report.cases.find((c) => c.requirements[0] === 'MAPI-11')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/left it out \(--filter\): not run$/),
    });
  });
});

describe('--estimator', () => {
  it('a service that counts o200k_base tokens passes when it is declared, and fails MAPI-3 by NUM-2 when it is not', async () => {
    const declared = await runAgainst({ estimator: 'o200k_base' }, ['--properties', '100', '--estimator', 'o200k_base']);
    expect(declared.code, declared.text).toBe(0);
    expect(declared.report.cases.find((c) => c.id === 'contract/token-budget')!.message).toMatch(
      /; by the kit's count \(o200k_base tokens\), tokenEstimate never undercounted the segments/,
    );
    const undeclared = await runAgainst({ estimator: 'o200k_base' }, ['--properties', '100']);
    expect(undeclared.code).toBe(1);
    const budget = undeclared.report.cases.find((c) => c.id === 'contract/token-budget')!;
    expect(budget.status).toBe('fail');
    expect(budget.message).toMatch(/the segments cost \d+ tokens by the kit's count \(4 code points a token, NUM-2\), more than maxTokens/);
  });

  it('the rerun command keeps the estimator', async () => {
    const { report } = await runAgainst({ variant: 'undercounts-tokens' }, ['--estimator', '4']);
    expect(report.cases.find((c) => c.id === 'contract/token-budget')!.rerun).toContain('--estimator 4 --cases none');
  });

  it('usage errors: an estimator the kit does not know, one without --memory-api, an unknown clause', async () => {
    service = await startMemoryService();
    await expect(run(['--memory-api', service.url, '--estimator', 'p50k_base'])).rejects.toThrow(
      /--estimator takes a number of code points per token .*, not "p50k_base"/,
    );
    await expect(run(['--memory-api', service.url, '--estimator', '0'])).rejects.toThrow(/--estimator takes/);
    await expect(run(['--estimator', '4'])).rejects.toThrow(/--estimator goes with --memory-api/);
    await expect(run(['--require-tested', 'all'])).rejects.toThrow(/--require-tested goes with --memory-api/);
    await expect(run(['--memory-api', service.url, '--require-tested', 'MAPI-99'])).rejects.toThrow(
      /--require-tested takes all, or clause ids from MAPI-1 to MAPI-13/,
    );
  });
});

describe('the terminal names the fallbacks the run took', () => {
  it('a strong read refused in an {error} envelope with HTTP 501, and a constraints.maxSegments refused: noted under the clause table, and the run passes', async () => {
    const { code, text, report } = await runAgainst({ refuseStrong: { envelope: 'error', status: 501 }, strictConstraints: true }, []);
    expect(code, text).toBe(0);
    expect(text).toContain(
      '\nnote: the service refused consistency "strong" with unsupported_consistency (HTTP 501: this service reads with eventual consistency only), ' +
        'so assemble-context was asked again with consistency "eventual", as every later call was\n',
    );
    expect(text).toContain(
      '\nnote: the service refused constraints.maxSegments with invalid_request (HTTP 400: constraints: unknown member maxSegments), ' +
        'so assemble-context was asked again with the cap in budget.maxSegments only, as every later call was\n',
    );
    expect(report.cases.every((c) => c.kind !== 'contract' || c.status === 'pass')).toBe(true);
  });
});
