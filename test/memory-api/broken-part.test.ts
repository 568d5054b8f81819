/**
 * One broken operation must not hide the rest (SPEC section 16, MAPI-1): a
 * service whose ingest breaks on an optional part of the kit's request (the
 * Postgres store of an independent runtime rejects every episode carrying a dedupeKey; this
 * fake has the same failure, so no database server is needed) fails MAPI-1
 * once, and the run goes on without that part and judges every other clause.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runContract, DIRECTED } from '../../contract/index.js';
import type { ContractResult } from '../../protocol/types.js';
import { startMemoryService, type FakeService, type ServiceOptions } from '../fixtures/memory-service/server.js';

const RUNS = 30;
let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function contract(o: ServiceOptions, runs = RUNS): Promise<ContractResult[]> {
  service = await startMemoryService(o);
  return runContract({ url: service.url, timeoutMs: 5000, runs, seed: 5 });
}

const notPassing = (results: ContractResult[]) => results.filter((r) => r.status !== 'pass').map((r) => `${r.requirements[0]} ${r.status}`);
type Ingest = { scope: { namespaceId: string }; episodes: { dedupeKey?: string }[] };

describe('an ingest that breaks on dedupeKey', () => {
  it('fails MAPI-1 once, saying the HTTP status and how many episodes were rejected; every other clause is tested and passes', async () => {
    const results = await contract({ rejectDedupeKey: true });
    expect(notPassing(results)).toEqual(['MAPI-1 fail']);
    const answers = results.find((r) => r.id === 'contract/answers')!;
    expect(answers.message).toBe(
      'MAPI-1 (ingest, hydrate and assemble-context each answer 2xx with JSON of the documented shape within the time limit) broken in "everything fits": ' +
        'ingest broke on dedupeKey: HTTP 200, 3 of 3 episodes rejected (first: block fit-a, runtime_error: undefined is not an object); ' +
        `sent with no dedupeKey, it answered, and every later ingest call was sent that way (1 of ${DIRECTED.length + RUNS} exchanges that tested it broke it)`,
    );
    expect(answers.actual).toMatchObject({
      op: 'ingest',
      status: 200,
      response: { results: [{ status: 'rejected' }, { status: 'rejected' }, { status: 'rejected' }] },
    });
    for (const r of results.filter((x) => x.id !== 'contract/answers')) expect(r.exchanges_tested, r.id).toBeGreaterThan(0);
    // One ingest with dedupeKey, then none; the retry went into a scope of its own.
    const ingests = service!.seen.filter((s) => s.path === '/v0/ingest').map((s) => s.body as Ingest);
    expect(ingests[0]!.episodes.every((e) => e.dedupeKey !== undefined)).toBe(true);
    expect(ingests.slice(1).every((i) => i.episodes.every((e) => e.dedupeKey === undefined))).toBe(true);
    expect(ingests[1]!.scope.namespaceId).not.toBe(ingests[0]!.scope.namespaceId);
  });

  for (const [variant, clause] of [
    ['oversized-first', 'MAPI-3'],
    ['cap-hides-truncation', 'MAPI-4'],
    ['returns-excluded', 'MAPI-8'],
  ] as const) {
    it(`does not hide a ${clause} defect beside it (${variant})`, async () => {
      expect(notPassing(await contract({ rejectDedupeKey: true, variant }))).toEqual(['MAPI-1 fail', `${clause} fail`]);
    });
  }

  it('with strong reads refused as well, the refusal is a note and the dedupeKey the failure', async () => {
    const results = await contract({ rejectDedupeKey: true, refuseStrong: true }, 5);
    expect(notPassing(results)).toEqual(['MAPI-1 fail']);
    expect(results.find((r) => r.id === 'contract/answers')!.message).toMatch(
      /ingest broke on dedupeKey: .*; fallback: the service refused consistency "strong" with unsupported_consistency/,
    );
  });
});

describe('a run that stops says what it did not reach', () => {
  it('ingest failing for good after a few exchanges: MAPI-1 fails, and a clause whose needs were not met says it was not reached', async () => {
    const results = await contract({ ingestFailsAfter: 6 });
    const answers = results.find((r) => r.id === 'contract/answers')!;
    expect(answers.status).toBe('fail');
    expect(answers.message).toMatch(
      /the service answered the error unavailable: ingest: HTTP 503: the store is unreachable \(3 of \d+ exchanges that tested it broke it\); stopped after 3 failed exchanges in a row$/,
    );
    const attempted = answers.num_runs!;
    expect(attempted).toBeLessThan(DIRECTED.length + RUNS);
    const skipped = results.filter((r) => r.status === 'skip');
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) {
      expect(r.message).toMatch(
        new RegExp(
          `^${r.requirements[0]} untested: not reached: the run stopped after ${attempted} of ${DIRECTED.length + RUNS} ` +
            `exchanges, when ingest failed in 3 exchanges in a row \\(see contract/answers\\)`,
        ),
      );
    }
    // What was tested before the stop is judged as ever.
    expect(results.filter((r) => r.status === 'pass').length).toBeGreaterThan(0);
  });
});

describe('a type error is reported once', () => {
  it('segment contents that are objects: MAPI-2 fails, MAPI-10 does not fail again and says why it went untested', async () => {
    for (const mode of ['retrieving', 'plain'] as const) {
      const results = await contract({ variant: 'content-object', mode }, 10);
      expect(notPassing(results), mode).toEqual(['MAPI-2 fail', 'MAPI-10 skip']);
      expect(results.find((r) => r.id === 'contract/schema')!.message).toMatch(/\/context\/segments\/0\/content: must be string/);
      expect(results.find((r) => r.id === 'contract/verbatim-content')!.message).toMatch(
        /^MAPI-10 untested: ingested memories came back as segments, but with a content that is not a string \(MAPI-2 reports it\), so no content was compared/,
      );
      await service!.close();
      service = undefined;
    }
  });
});
