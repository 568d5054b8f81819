import { afterEach, describe, expect, it } from 'vitest';
import { runContract, CLAUSES, DIRECTED, type ContractOptions } from '../../contract/index.js';
import { validators } from '../../protocol/schemas.js';
import type { ContractResult } from '../../protocol/types.js';
import {
  BROKEN_VARIANTS,
  RETRIEVING_ONLY,
  startMemoryService,
  type FakeService,
  type Mode,
  type ServiceOptions,
  type Variant,
} from '../fixtures/memory-service/server.js';

const RUNS = 30;
const SEED = 7;
const EXCHANGES = DIRECTED.length + RUNS;
const MODES: readonly Mode[] = ['retrieving', 'plain'];
let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

type Observed = { results: ContractResult[]; seen: FakeService['seen'] };
/**
 * Each contract run is made once per file: tests that check different things about the same run
 * (a broken variant's failing clause, and the schema message it gives) read the same observation.
 * A fresh fake serves each run and is closed after it.
 */
const observed = new Map<string, Promise<Observed>>();
/** What the fake saw in the last run contractAgainst gave. */
let seen: FakeService['seen'] = [];

async function contractAgainst(
  variant: Variant,
  o: { timeoutMs?: number; runs?: number; mode?: Mode; service?: ServiceOptions; run?: Partial<ContractOptions> } = {},
): Promise<ContractResult[]> {
  const serviceOptions: ServiceOptions = { variant, apiKey: 'k-123', mode: o.mode ?? 'retrieving', ...o.service };
  const options = { apiKey: 'k-123', timeoutMs: o.timeoutMs ?? 5000, runs: o.runs ?? RUNS, seed: SEED, ...o.run };
  const key = JSON.stringify([serviceOptions, options]);
  let run = observed.get(key);
  if (!run) {
    run = (async () => {
      const fake = await startMemoryService(serviceOptions);
      try {
        return { results: await runContract({ url: fake.url, ...options }), seen: fake.seen };
      } finally {
        await fake.close();
      }
    })();
    observed.set(key, run);
  }
  const r = await run;
  seen = r.seen;
  return structuredClone(r.results);
}

/** "held in all N of M exchanges that tested it": N, checked against the result's own count. */
function testedBy(r: ContractResult): number {
  const m = /held in all (\d+) of (\d+) exchanges that tested it/.exec(r.message ?? '');
  expect(m, `${r.id}: ${r.message}`).not.toBeNull();
  expect(Number(m![1])).toBe(r.exchanges_tested);
  expect(Number(m![2])).toBe(r.num_runs);
  return r.exchanges_tested!;
}

describe('contract run against the faithful fake', () => {
  for (const mode of MODES) {
    it(`${mode}: passes every clause, each one put to the test by some exchange`, async () => {
      const results = await contractAgainst('faithful', { mode });
      expect(results.map((r) => r.id)).toEqual(CLAUSES.map((c) => `contract/${c.name}`));
      for (const r of results) {
        expect(r, `${r.id}: ${r.message}`).toMatchObject({ kind: 'contract', status: 'pass', seed: SEED, num_runs: EXCHANGES });
        expect(r.requirements).toHaveLength(1);
        expect(testedBy(r)).toBeGreaterThan(0);
      }
      // Every exchange asks and checks the schema; the budget is pressed only in some.
      expect(results.find((r) => r.id === 'contract/answers')!.exchanges_tested).toBe(EXCHANGES);
      expect(results.find((r) => r.id === 'contract/token-budget')!.exchanges_tested).toBeLessThan(EXCHANGES);
    });
  }

  it('gives results the report schema accepts', async () => {
    const results = await contractAgainst('missing-empty-context');
    const valid = validators.report();
    const report = {
      kit: { name: 'ctxconform', version: '0.1.0', spec: '1' },
      implementation: { name: 'memory-api', version: 'unknown', profiles: ['working-context-api'], capabilities: [] },
      summary: { total: results.length, pass: 0, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 0 },
      cases: results,
    };
    for (const r of results) report.summary[r.status]++;
    expect(valid(report), JSON.stringify(valid.errors)).toBe(true);
  });

  it('the retrieving fake is like the real runtime: whole-task match, keyword atoms with provenance, content objects', async () => {
    service = await startMemoryService();
    type Answer = { context: { segments: { ref: { id: string; type: string }; content: string; provenance: { sourceRefs?: { id: string }[] } }[] } };
    const post = async (path: string, body: unknown) =>
      (await fetch(`${service!.url}${path}`, { method: 'POST', body: JSON.stringify(body) })).json() as Promise<Answer>;
    const scope = { tenantId: 't', namespaceId: 'n' };
    const episode = (text: string, dedupeKey: string) => ({
      contentType: 'text/plain',
      content: { text },
      dedupeKey,
      createdBy: { id: 'x', kind: 'tool' },
      metadata: {},
    });
    await post('/v0/ingest', { scope, episodes: [episode('Billing escalation for ctx7q2mark', 'a'), episode('unrelated', 'b')] });
    const ask = (task: string) => post('/v0/assemble-context', { scope, task, budget: { maxTokens: 500 } });
    const { context } = await ask('CTX7Q2MARK');
    expect(context.segments.map((s) => [s.ref.type, s.content])).toEqual([
      ['episode', '{"text":"Billing escalation for ctx7q2mark"}'],
      ['atom', 'billing'],
      ['atom', 'escalation'],
    ]);
    expect(context.segments[1]!.provenance.sourceRefs!.map((r) => r.id)).toEqual([context.segments[0]!.ref.id]);
    // The whole task must match: one of its words is not enough.
    expect((await ask('billing report')).context.segments).toEqual([]);
  });
});

describe('each broken fake fails the clause it breaks, and only that one; every other clause still passes', () => {
  for (const mode of MODES) {
    for (const [variant, clauseId] of Object.entries(BROKEN_VARIANTS)) {
      if (mode === 'plain' && RETRIEVING_ONLY.has(variant)) continue;
      it(`${mode}: ${variant} -> ${clauseId}`, async () => {
        const results = await contractAgainst(variant as Variant, { mode });
        const notPassing = results.filter((r) => r.status !== 'pass');
        expect(
          notPassing.map((r) => `${r.requirements[0]} ${r.status}`),
          notPassing.map((r) => r.message).join('\n'),
        ).toEqual([`${clauseId} fail`]);
        const f = notPassing[0]!;
        expect(f.message).toContain(clauseId);
        // "K of N exchanges" counts exchanges that tested the clause, K <= N.
        const m = /\((\d+) of (\d+) exchanges that tested it broke it\)/.exec(f.message!);
        expect(m, f.message).not.toBeNull();
        expect(Number(m![1])).toBeLessThanOrEqual(Number(m![2]));
        expect(Number(m![2])).toBe(f.exchanges_tested);
        // The violation shows the request (kit request and what was sent) and the service's answer
        // (MAPI-1: the call that refused the request).
        expect(f.request).toMatchObject({ kit: expect.any(Object), sent: { budget: { maxTokens: expect.any(Number) } } });
        expect(f.actual).toBeTypeOf('object');
        if (clauseId === 'MAPI-1') expect(f.actual).toMatchObject({ op: expect.any(String), status: expect.any(Number), response: expect.anything() });
      });
    }
  }

  it('a plain service has no derived memories: the foreign-provenance fault cannot show, and nothing fails', async () => {
    const results = await contractAgainst('foreign-provenance', { mode: 'plain' });
    expect(results.every((r) => r.status === 'pass')).toBe(true);
  });

  it('names the schema problem: the date-time, the warning code, the extra member', async () => {
    const [schema] = (await contractAgainst('invalid-generated-at')).filter((r) => r.id === 'contract/schema');
    expect(schema!.message).toMatch(/\/context\/generatedAt: must match format "date-time"/);
    const [schema2] = (await contractAgainst('unknown-warning-code')).filter((r) => r.id === 'contract/schema');
    expect(schema2!.message).toMatch(/\/context\/warnings\/\d+\/code: must be equal to one of the allowed values/);
    const [schema3] = (await contractAgainst('warning-extra-member')).filter((r) => r.id === 'contract/schema');
    expect(schema3!.message).toMatch(/\/context\/warnings\/\d+: must NOT have additional properties/);
  });

  it('the oversized first memory admitted whole is a MAPI-3 failure in the directed scenario built for it', async () => {
    const budget = (await contractAgainst('oversized-first', { runs: 0 })).find((r) => r.id === 'contract/token-budget')!;
    expect(budget.message).toMatch(
      /broken in "first-ranked memory larger than the whole budget": tokenEstimate \d+ exceeds maxTokens 55 - reservedTokens 30 = 25/,
    );
  });

  it('a MAPI-4 failure shows the unconstrained request and answer it rests on', async () => {
    const flag = (await contractAgainst('cap-hides-truncation', { runs: 0 })).find((r) => r.id === 'contract/truncated-flag')!;
    expect(flag.message).toMatch(
      /broken in "segment cap leaves memories out": truncated is false, but candidates the service retrieves for the task are represented by no segment: episode\/ep_\d+ \(block cap-/,
    );
    expect(flag.request).toMatchObject({ unconstrained: { task: 'ctx7q2mark', budget: { maxTokens: expect.any(Number) } } });
    expect((flag.request as { unconstrained: Record<string, unknown> }).unconstrained).not.toHaveProperty('constraints');
    expect(flag.actual).toMatchObject({ answer: { context: { truncated: false } }, unconstrained: { context: { truncated: false } } });
  });
});

describe('what is put to the test', () => {
  it('a task no ingested text contains: the service retrieves nothing, and nothing fails; untested clauses skip with the reason', async () => {
    const results = await contractAgainst('faithful', { run: { marker: '' } });
    expect(results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(results.find((r) => r.id === 'contract/answers')!.status).toBe('pass');
    const skipped = results.filter((r) => r.status === 'skip');
    expect(skipped.map((r) => r.requirements[0])).toEqual([
      'MAPI-2',
      'MAPI-3',
      'MAPI-4',
      'MAPI-5',
      'MAPI-6',
      'MAPI-7',
      'MAPI-8',
      'MAPI-9',
      'MAPI-10',
      'MAPI-11',
      'MAPI-12',
      'MAPI-13',
    ]);
    for (const r of skipped) expect(r.message).toMatch(new RegExp(`^${r.requirements[0]} untested: `));
    expect(results.find((r) => r.id === 'contract/truncated-flag')!.message).toMatch(
      new RegExp(`untested: no answer left a candidate in play unrepresented \\(\\d+ of ${EXCHANGES} exchanges tested the rest; none broke it\\)`),
    );
    expect(results.find((r) => r.id === 'contract/verbatim-content')).toMatchObject({
      exchanges_tested: 0,
      message: 'MAPI-10 untested: no ingested memory came back as a segment, so no content was compared',
    });
    // Every ingested text went in unchanged and the task was the fixed sentence.
    const ingest = seen.find((s) => s.path === '/v0/ingest')!.body as { episodes: { content: { text: string } }[] };
    expect(ingest.episodes.every((e) => !e.content.text.includes('ctx7q2mark'))).toBe(true);
  });

  it('the marker is carried by every ingested text and sent as the task', async () => {
    await contractAgainst('faithful', { runs: 3 });
    const ingests = seen.filter((s) => s.path === '/v0/ingest').flatMap((s) => (s.body as { episodes: { content: { text: string } }[] }).episodes);
    expect(ingests.length).toBeGreaterThan(0);
    expect(ingests.every((e) => e.content.text === 'ctx7q2mark' || e.content.text.endsWith(' ctx7q2mark'))).toBe(true);
    const tasks = new Set(seen.filter((s) => s.path === '/v0/assemble-context').map((s) => (s.body as { task: string }).task));
    expect([...tasks]).toEqual(['ctx7q2mark']);
  });

  it('--task and --marker choose what is sent', async () => {
    const results = await contractAgainst('faithful', { runs: 0, run: { marker: 'zz9top', task: 'billing' } });
    expect(results.filter((r) => r.status === 'fail')).toEqual([]);
    const texts = seen
      .filter((s) => s.path === '/v0/ingest')
      .flatMap((s) => (s.body as { episodes: { content: { text: string } }[] }).episodes.map((e) => e.content.text));
    expect(texts.every((t) => t.endsWith(' zz9top'))).toBe(true);
    const tasks = new Set(seen.filter((s) => s.path === '/v0/assemble-context').map((s) => (s.body as { task: string }).task));
    expect([...tasks]).toEqual(['billing']);
  });

  it('a service that refuses strong consistency is asked again with eventual, said once, and passes', async () => {
    const results = await contractAgainst('faithful', { service: { refuseStrong: true } });
    for (const r of results) expect(r.status, `${r.id}: ${r.message}`).toBe('pass');
    const answers = results.find((r) => r.id === 'contract/answers')!;
    expect(answers.message).toMatch(
      new RegExp(
        String.raw`; fallback: the service refused consistency "strong" with unsupported_consistency \(HTTP 400: [^)]*\), ` +
          String.raw`so assemble-context was asked again with consistency "eventual", as every later call was$`,
      ),
    );
    expect(results.filter((r) => /unsupported_consistency/.test(r.message ?? ''))).toHaveLength(1);
    const consistencies = seen.filter((s) => s.path === '/v0/assemble-context').map((s) => (s.body as { consistency: string }).consistency);
    // One refusal, then eventual throughout.
    expect(consistencies.filter((c) => c === 'strong')).toHaveLength(1);
    expect(consistencies.slice(1).every((c) => c === 'eventual')).toBe(true);
  });
});

describe('random requests', () => {
  it('a random counterexample is shrunk to what still breaks the clause', async () => {
    service = await startMemoryService({ variant: 'too-many-segments', mode: 'plain' });
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
    const { randomScenarios } = await import('../../contract/index.js');
    expect(randomScenarios(3, 5)).toEqual(randomScenarios(3, 5));
    expect(randomScenarios(3, 5)).not.toEqual(randomScenarios(4, 5));
  });
});

describe('a service that does not answer is a result, not an exception', () => {
  it('a hanging assemble-context is a timeout of contract/answers, and the run gives up', async () => {
    const results = await contractAgainst('hang', { timeoutMs: 150 });
    const answers = results.find((r) => r.id === 'contract/answers')!;
    expect(answers.status).toBe('timeout');
    expect(answers.message).toMatch(
      /MAPI-1 .*assemble-context: no answer within \d+ ms \(3 of 3 exchanges that tested it broke it\); stopped after 3 failed exchanges in a row/,
    );
    for (const r of results.filter((x) => x.id !== 'contract/answers')) {
      expect(r.status).toBe('skip');
      expect(r.message).toBe(
        `${r.requirements[0]} untested: not reached: the run stopped after 3 of ${EXCHANGES} exchanges, when assemble-context failed in 3 exchanges in a row (see contract/answers)`,
      );
    }
  });

  it('a non-JSON answer is an error, a dropped connection a crash', async () => {
    const garbage = await contractAgainst('garbage', { runs: 0 });
    expect(garbage.find((r) => r.id === 'contract/answers')).toMatchObject({ status: 'error', message: expect.stringMatching(/not JSON/) });
    const drop = await contractAgainst('drop', { runs: 0 });
    expect(drop.find((r) => r.id === 'contract/answers')).toMatchObject({ status: 'crash' });
  });

  it('a wrong api key is the service refusing: a fail of contract/answers with its error code', async () => {
    service = await startMemoryService({ apiKey: 'right' });
    const results = await runContract({ url: service.url, apiKey: 'wrong', timeoutMs: 2000, runs: 0, seed: 1 });
    expect(results.find((r) => r.id === 'contract/answers')).toMatchObject({ status: 'fail', message: expect.stringMatching(/unauthorized/) });
    // A refused credential is not a part of the body to do without: three exchanges, one call each (the empty scope ingests nothing), no retries.
    expect(service.seen.map((s) => s.path)).toEqual(['/v0/assemble-context', '/v0/ingest', '/v0/ingest']);
  });
});
