/**
 * The in-process adapter hands a function a deep copy of the request, so an
 * implementation that writes to its request cannot change what the judge
 * sees; only the reference, which never writes to it (test/reference/
 * lengths.test.ts), is handed the caller's own.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { runProperties } from '../../judging/properties/index.js';
import { judgeRecorded } from '../../traffic/replay/judge.js';
import { cloneJson } from '../../protocol/deep-json.js';
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

describe('the copy (cloneJson)', () => {
  it("is structuredClone's, member for member, for plain data and for what plain data is not", () => {
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    const withProtoMember = JSON.parse('{"block_id":"a","__proto__":{"pinned":true}}') as unknown;
    const sparse: unknown[] = [1];
    sparse[2] = 3; // a hole at 1
    const extra = Object.assign([1, 2], { note: 'x' });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const values: unknown[] = [
      { now: -0, budget: Number.NaN, blocks: [{ content: '\u{1f600}', priority: undefined, big: 10n }], constraints: null },
      nullProto,
      withProtoMember,
      sparse,
      extra,
      { at: new Date(0), m: new Map([[1, 2]]) },
      cyclic,
    ];
    for (const v of values) {
      const copy = cloneJson(v);
      expect(copy).toStrictEqual(structuredClone(v));
      expect(copy).not.toBe(v);
    }
    // An own __proto__ member stays a member, not a prototype.
    expect(Object.getPrototypeOf(cloneJson(withProtoMember))).toBe(Object.prototype);
    expect(Object.keys(cloneJson(withProtoMember) as object)).toEqual(['block_id', '__proto__']);
    expect(1 in (cloneJson(sparse) as unknown[])).toBe(false);
    const c = cloneJson(cyclic);
    expect(c.self).toBe(c);
  });

  it('refuses what structuredClone refuses', () => {
    expect(() => cloneJson({ f: () => 1 })).toThrow();
    expect(() => cloneJson({ s: Symbol('x') })).toThrow();
    expect(() => cloneJson(new Proxy({}, {}))).toThrow();
  });
});
