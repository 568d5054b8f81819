import { afterEach, describe, expect, it } from 'vitest';
import { runContract, CLAUSES } from '../../conformance/contract/index.js';
import { validators } from '../../conformance/schemas.js';
import { BROKEN_VARIANTS, startMemoryService, type FakeService, type Variant } from '../fixtures/memory-service/server.js';

const RUNS = 30;
const SEED = 7;
let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function contractAgainst(variant: Variant, o: { timeoutMs?: number; runs?: number } = {}) {
  service = await startMemoryService({ variant, apiKey: 'k-123' });
  return runContract({ url: service.url, apiKey: 'k-123', timeoutMs: o.timeoutMs ?? 5000, runs: o.runs ?? RUNS, seed: SEED });
}

describe('contract run against the faithful fake', () => {
  it('passes every clause, each one put to the test', async () => {
    const results = await contractAgainst('faithful');
    expect(results.map((r) => r.id)).toEqual(CLAUSES.map((c) => `contract/${c.name}`));
    for (const r of results) {
      expect(r, `${r.id}: ${r.message}`).toMatchObject({ kind: 'contract', status: 'pass', seed: SEED });
      expect(r.requirements).toHaveLength(1);
    }
  });

  it('gives results the report schema accepts', async () => {
    const results = await contractAgainst('missing-empty-context');
    const valid = validators.report();
    const report = {
      kit: { name: 'ctxconform', version: '0.1.0', spec: '1' },
      implementation: { name: 'memory-api', version: 'unknown', profiles: ['working-context-api'], capabilities: [] },
      summary: { total: results.length, pass: 0, fail: 0, error: 0, timeout: 0, crash: 0, skip: 0 },
      cases: results,
    };
    for (const r of results) report.summary[r.status]++;
    expect(valid(report), JSON.stringify(valid.errors)).toBe(true);
  });
});

describe('each broken fake fails the clause it breaks, and only that one', () => {
  for (const [variant, clauseId] of Object.entries(BROKEN_VARIANTS)) {
    it(`${variant} -> ${clauseId}`, async () => {
      const results = await contractAgainst(variant as Variant);
      const failing = results.filter((r) => r.status !== 'pass');
      expect(failing.map((r) => `${r.requirements[0]} ${r.status}`)).toEqual([`${clauseId} fail`]);
      const f = failing[0]!;
      expect(f.message).toContain(clauseId);
      // The violation shows the request (kit request and what was sent) and the service's answer.
      expect(f.request).toMatchObject({ kit: expect.any(Object), sent: { budget: { maxTokens: expect.any(Number) } } });
      expect(f.actual).toBeTypeOf('object');
    });
  }

  it('names the schema problem: the date-time and the warning code', async () => {
    const [schema] = (await contractAgainst('invalid-generated-at')).filter((r) => r.id === 'contract/schema');
    expect(schema!.message).toMatch(/\/context\/generatedAt: must match format "date-time"/);
    await service!.close();
    const [schema2] = (await contractAgainst('unknown-warning-code')).filter((r) => r.id === 'contract/schema');
    expect(schema2!.message).toMatch(/\/context\/warnings\/\d+\/code: must be equal to one of the allowed values/);
  });
});

describe('random requests', () => {
  it('a random counterexample is shrunk to what still breaks the clause', async () => {
    service = await startMemoryService({ variant: 'too-many-segments' });
    const results = await runContract({ url: service.url, timeoutMs: 5000, runs: RUNS, seed: SEED, randomOnly: true, shrinkTries: 100 });
    const r = results.find((x) => x.id === 'contract/max-segments')!;
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/broken in "random #\d+ \(seed 7\), shrunk": \d+ segments, more than maxSegments \d+ .*shrunk to \d+ block\(s\)/);
    const kit = (r.counterexample as { kit: { blocks: unknown[]; constraints: Record<string, unknown> }; reservedTokens: number }).kit;
    // Nothing but the cap is left, and one block more than it allows.
    expect(Object.keys(kit.constraints)).toEqual(['max_segments']);
    expect(kit.blocks).toHaveLength((kit.constraints.max_segments as number) + 1);
    expect((r.counterexample as { reservedTokens: number }).reservedTokens).toBe(0);
  });

  it('the same seed sends the same requests', async () => {
    const { randomScenarios } = await import('../../conformance/contract/index.js');
    expect(randomScenarios(3, 5)).toEqual(randomScenarios(3, 5));
    expect(randomScenarios(3, 5)).not.toEqual(randomScenarios(4, 5));
  });
});

describe('a service that does not answer is a result, not an exception', () => {
  it('a hanging assemble-context is a timeout of contract/answers, and the run gives up', async () => {
    const results = await contractAgainst('hang', { timeoutMs: 150 });
    const answers = results.find((r) => r.id === 'contract/answers')!;
    expect(answers.status).toBe('timeout');
    expect(answers.message).toMatch(/MAPI-1 .*assemble-context: no answer within \d+ ms \(3 of 3 exchanges broke it\); stopped after 3 failed exchanges in a row/);
    for (const r of results.filter((x) => x.id !== 'contract/answers')) {
      expect(r.status).toBe('skip');
      expect(r.message).toMatch(/not exercised: no exchange with the service completed/);
    }
  });

  it('a non-JSON answer is an error, a dropped connection a crash', async () => {
    const garbage = await contractAgainst('garbage', { runs: 0 });
    expect(garbage.find((r) => r.id === 'contract/answers')).toMatchObject({ status: 'error', message: expect.stringMatching(/not JSON/) });
    await service!.close();
    const drop = await contractAgainst('drop', { runs: 0 });
    expect(drop.find((r) => r.id === 'contract/answers')).toMatchObject({ status: 'crash' });
  });

  it('a wrong api key is the service refusing: a fail of contract/answers with its error code', async () => {
    service = await startMemoryService({ apiKey: 'right' });
    const results = await runContract({ url: service.url, apiKey: 'wrong', timeoutMs: 2000, runs: 0, seed: 1 });
    expect(results.find((r) => r.id === 'contract/answers')).toMatchObject({ status: 'fail', message: expect.stringMatching(/unauthorized/) });
  });
});
