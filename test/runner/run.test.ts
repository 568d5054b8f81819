/**
 * runSuite on its own: order, statuses, skips, shard, filter, report shape.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { openImplementation } from '../../running/open.js';
import { runSuite } from '../../running/run.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import type { Manifest } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { KIT_VERSION } from '../../vocabulary/spec.js';
import { assemble } from '../../reference/index.js';
import { FAULT_CASES } from '../fixtures/faulty/cases.js';

const CORE: Manifest = { name: 'core', version: '1', profiles: ['tiered'], capabilities: [] };

// Answers come back in the reverse of the order asked, so completion order is not id order.
function slowFirst(): ReturnType<typeof fromFunctions> {
  let n = 0;
  return fromFunctions(
    async (req) => {
      const wait = 40 - 6 * n++;
      await new Promise((r) => setTimeout(r, Math.max(0, wait)));
      return assemble(req, { capabilities: [] });
    },
    undefined,
    CORE,
  );
}

describe('runSuite', () => {
  it('keeps the report in case id order whatever the completion order, with concurrency', async () => {
    const shuffled = [...FAULT_CASES].reverse();
    const progress: number[] = [];
    const r = await runSuite({
      cases: shuffled,
      impl: slowFirst(),
      manifest: CORE,
      timeoutMs: 1000,
      concurrency: 6,
      properties: 0,
      seed: 1,
      onProgress: (d) => progress.push(d),
    });
    expect(r.cases.map((c) => c.id)).toEqual(FAULT_CASES.map((c) => c.id).sort());
    expect(r.summary).toEqual({ total: 6, pass: 6, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 0 });
    expect(progress[progress.length - 1]).toBe(6);
    expect(r.kit).toEqual({ name: 'ctxconform', version: KIT_VERSION, spec: 'v1' });
    expect(r.implementation).toEqual(CORE);
  });

  it('skips what the manifest does not declare, with the reason, without asking the implementation', async () => {
    let asked = 0;
    const impl = fromFunctions(
      (req) => {
        asked++;
        return assemble(req);
      },
      undefined,
      CORE,
    );
    const needs: GoldenCase[] = [
      { ...FAULT_CASES[0]!, id: 'x/needs-pinned', capabilities: ['pinned'] },
      { ...FAULT_CASES[0]!, id: 'x/needs-ranked', profile: 'ranked' },
    ];
    const r = await runSuite({ cases: needs, impl, manifest: CORE, timeoutMs: 1000, concurrency: 1, properties: 0, seed: 1 });
    expect(asked).toBe(0);
    expect(r.cases.map((c) => [c.status, c.message])).toEqual([
      ['skip', 'capability pinned not declared by the implementation'],
      ['skip', 'profile ranked is not declared by the implementation'],
    ]);
  });

  it('a wrong answer is fail with expected, actual, the request and a rerun command; a schema break is error', async () => {
    const impl = fromFunctions(
      (req) => {
        const out = assemble(req, { capabilities: [] }) as unknown as Record<string, unknown>;
        if ((req as { budget: number }).budget === 10) return { ...out, estimated_tokens: 99 };
        if ((req as { budget: number }).budget === 0) return { ...out, extra: true };
        return out;
      },
      undefined,
      CORE,
    );
    const r = await runSuite({
      cases: FAULT_CASES,
      impl,
      manifest: CORE,
      timeoutMs: 1000,
      concurrency: 1,
      properties: 0,
      seed: 1,
      rerun: (id) => `again ${id}`,
    });
    const budget = resultsOf(r.cases, 'case').find((c) => c.id === 'fault/c-budget')!;
    expect(budget).toMatchObject({
      status: 'fail',
      expected: { estimated_tokens: 4 },
      rerun: 'again fault/c-budget',
      requirements: ['TIER-4', 'TIER-6', 'TIER-7'],
    });
    expect(budget.actual).toMatchObject({ estimated_tokens: 99 });
    expect(budget.request).toEqual(FAULT_CASES[2]!.request);
    const empty = r.cases.find((c) => c.id === 'fault/f-empty')!;
    expect(empty.status).toBe('error');
    expect(empty.message).toMatch(/"extra"/);
    expect(r.cases.filter((c) => c.status === 'pass').every((c) => c.rerun === undefined && c.message === undefined)).toBe(true);
  });

  it('filter and shard select ids; the run section records them', async () => {
    const impl = fromFunctions((req) => assemble(req, { capabilities: [] }), undefined, CORE);
    const base = { impl, manifest: CORE, timeoutMs: 1000, concurrency: 1, properties: 0, seed: 9 };
    const filtered = await runSuite({ ...base, cases: FAULT_CASES, filter: 'fault/[!]*,fault/d-*' });
    expect(filtered.cases.map((c) => c.id)).toEqual(['fault/d-order']);
    const s1 = await runSuite({ ...base, cases: FAULT_CASES, shard: { index: 1, total: 4 } });
    const s2 = await runSuite({ ...base, cases: FAULT_CASES, shard: { index: 2, total: 4 } });
    // Every 4th id from the first / second: a, e and b, f.
    expect(s1.cases.map((c) => c.id)).toEqual(['fault/a-single', 'fault/e-invalid']);
    expect(s2.cases.map((c) => c.id)).toEqual(['fault/b-expired', 'fault/f-empty']);
    expect(s2.run).toMatchObject({ shard: '2/4', seed: 9, properties_runs: 0 });
  });

  it('runs the properties in shard 1 only, and a filter picks among them', async () => {
    const { impl, manifest } = await openImplementation({ transport: 'reference', config: {} });
    const base = { impl, manifest, timeoutMs: 1000, concurrency: 1, properties: 2, seed: 3, cases: [] };
    const all = await runSuite(base);
    expect(all.cases.length).toBeGreaterThan(1);
    expect(all.cases.every((c) => c.id.startsWith('property/') && c.kind === 'property')).toBe(true);
    const one = all.cases[0]!.id;
    expect((await runSuite({ ...base, filter: one })).cases.map((c) => c.id)).toEqual([one]);
    expect((await runSuite({ ...base, shard: { index: 2, total: 2 } })).cases).toEqual([]);
    expect((await runSuite({ ...base, filter: 'expiry/*' })).run?.properties_runs).toBe(0);
  });

  it("an adapter that throws becomes that case's error, and the run goes on", async () => {
    let n = 0;
    const impl = {
      describe: async () => CORE,
      assemble: async (req: unknown) => {
        if (n++ === 1) throw new Error('adapter bug');
        const value = assemble(req, { capabilities: [] });
        return 'error' in value ? { kind: 'error' as const, code: value.error.code, message: value.error.message, value } : { kind: 'result' as const, value };
      },
      close: async () => {},
    };
    const r = await runSuite({ cases: FAULT_CASES, impl, manifest: CORE, timeoutMs: 1000, concurrency: 1, properties: 0, seed: 1 });
    expect(r.cases.map((c) => c.status)).toEqual(['pass', 'error', 'pass', 'pass', 'pass', 'pass']);
    expect(r.cases[1]!.message).toBe('the adapter failed: adapter bug');
  });
});
