/**
 * The in-process adapter hands a function a deep copy of the request, so an
 * implementation that writes to its request cannot change what the judge
 * sees; only the reference, which never writes to it (test/reference/
 * lengths.test.ts), is handed the caller's own.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { loadCorpus } from '../../conformance/cases/load.js';
import { runProperties } from '../../conformance/properties/index.js';
import { judgeRecorded } from '../../conformance/replay/judge.js';
import type { Manifest } from '../../protocol/types.js';
import { assemble, CAPABILITIES, describe as referenceManifest } from '../../reference/index.js';

const opts = { timeoutMs: 5000 };
const manifest = { ...referenceManifest(), capabilities: [...CAPABILITIES] } as Manifest;
const reference = (req: unknown): unknown => assemble(req, { capabilities: CAPABILITIES });

/** Everything a careless implementation might do to its request once it has answered. */
function scramble(req: unknown): void {
  const r = req as { budget?: unknown; now?: unknown; blocks?: unknown; constraints?: unknown };
  if (typeof r !== 'object' || r === null) return;
  if (Array.isArray(r.blocks)) {
    for (const b of r.blocks as Record<string, unknown>[]) {
      if (typeof b !== 'object' || b === null) continue;
      b.content = 'x';
      b.priority = 0;
      b.pinned = true;
      delete b.block_id;
    }
    (r.blocks as unknown[]).reverse().pop();
  }
  r.budget = 0;
  r.now = 1e12;
  delete r.constraints;
}

/** Answers as the reference does, then scrambles the request it was handed. */
const careless = fromFunctions(
  (req) => {
    const answer = reference(req);
    scramble(req);
    return answer;
  },
  undefined,
  manifest,
);

describe('the request a function is handed', () => {
  it('is a copy by default: what the function writes does not reach the caller', async () => {
    let seen: unknown;
    const impl = fromFunctions((req) => {
      seen = req;
      scramble(req);
      return reference(req);
    });
    const req = { now: 5, budget: 10, blocks: [{ block_id: 'a', source: 'memory', content: 'hello', priority: 1 }] };
    const before = structuredClone(req);
    await impl.assemble(req, opts);
    expect(seen).not.toBe(req);
    expect(req).toEqual(before);
  });

  it("is the caller's own when the function reads only (readsOnly), as the reference is handed it", async () => {
    let seen: unknown;
    const req = { now: 5, budget: 10, blocks: [] };
    await fromFunctions(
      (r) => {
        seen = r;
        return reference(r);
      },
      undefined,
      undefined,
      { readsOnly: true },
    ).assemble(req, opts);
    expect(seen).toBe(req);
    // A Proxy cannot be copied (structuredClone refuses it): the reference answers it, so it was not copied.
    let reads = 0;
    const watched = new Proxy(req, {
      get: (t, k, r) => {
        reads++;
        return Reflect.get(t, k, r);
      },
    });
    expect(await referenceImplementation().assemble(watched, opts)).toMatchObject({ kind: 'result' });
    expect(reads).toBeGreaterThan(0);
  });
});

describe('an implementation that scrambles its request after answering', () => {
  it('gets the verdicts of replay that the reference gets, on every corpus request: its writes reach no check', async () => {
    const cases = loadCorpus().cases;
    for (const c of cases) {
      const req = structuredClone(c.request);
      const own = await judgeRecorded(referenceImplementation(), manifest, structuredClone(c.request), { ...opts, twice: true });
      const got = await judgeRecorded(careless, manifest, req, { ...opts, twice: true });
      expect(got.verdict, c.id).toEqual(own.verdict);
      expect(req, c.id).toEqual(c.request);
    }
  });

  it('passes every property the reference passes', async () => {
    const results = await runProperties(careless, manifest, { runs: 200, seed: 20261202, timeoutMs: 5000 });
    expect(results.map((r) => [r.id, r.status])).toEqual(results.map((r) => [r.id, 'pass']));
    expect(results.length).toBeGreaterThanOrEqual(10);
  });
});
