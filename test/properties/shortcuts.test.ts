/**
 * The shortcuts a replay's checks take on the common case, each against what
 * it stands for: samePlainData against JSON.stringify and isDeepStrictEqual,
 * the second answer of a request read through the first, and partition's
 * case with nothing to list.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { genContext, request } from '../../judging/properties/arbitraries.js';
import { PropertyFailure, readAnswer } from '../../judging/properties/answers.js';
import { PROPERTIES } from '../../judging/properties/catalog.js';
import type { PropertyEnv } from '../../judging/properties/property.js';
import { BlockIndex } from '../../judging/properties/block-index.js';
import { samePlainData } from '../../judging/properties/plain-data.js';
import type { Manifest, Outcome } from '../../protocol/types.js';
import { assemble, CAPABILITIES } from '../../reference/index.js';
import type { Result } from '../../reference/index.js';

const SEED = 20261203;
const RUNS = 2000;
const manifest = { name: 'x', version: '1', profiles: ['tiered', 'ranked'], capabilities: [...CAPABILITIES] } as Manifest;
const ctx = genContext(manifest);

/** JSON-like values, with the things JSON writes alike though they differ (-0, undefined, NaN) mixed in. */
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<unknown>(0, -0, 1, NaN, Infinity, '', 'a', '\u{1F600}', true, false, null, undefined),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'toJSON'), tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** A copy of x with its objects' members in another order: JSON writes it differently, isDeepStrictEqual does not tell. */
function reordered(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(reordered);
  if (typeof x !== 'object' || x === null) return x;
  return Object.fromEntries(
    Object.entries(x)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  );
}

describe('samePlainData', () => {
  it('says "the same" only of values JSON writes alike and isDeepStrictEqual holds for', () => {
    let same = 0;
    fc.assert(
      fc.property(value, value, fc.boolean(), (a, b, copy) => {
        const other = copy ? structuredClone(a) : b;
        if (!samePlainData(a, other)) return;
        same++;
        expect(JSON.stringify(a)).toBe(JSON.stringify(other));
        expect(isDeepStrictEqual(a, other)).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(same).toBeGreaterThan(RUNS / 5);
  });

  it('says it of two answers the reference gives to one request', () => {
    fc.assert(
      fc.property(request(ctx), (req) => {
        expect(samePlainData(assemble(req, { capabilities: CAPABILITIES }), assemble(req, { capabilities: CAPABILITIES }))).toBe(true);
      }),
      { numRuns: RUNS, seed: SEED + 1 },
    );
  });

  it('is not sure of what JSON writes alike but is not the same data: -0, undefined, NaN, another member order, a toJSON, a class', () => {
    // [1, <hole>, 3]: JSON writes the hole as null.
    const holed = (): unknown[] => {
      const a: unknown[] = [1];
      a[2] = 3;
      return a;
    };
    const cases: [unknown, unknown][] = [
      [0, -0],
      [{ a: undefined }, {}],
      [[undefined], [null]],
      [NaN, NaN],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [{ toJSON: () => 1 }, { toJSON: () => 1 }],
      [new Date(0), new Date(0)],
      [holed(), holed()],
      [{ a: [1, 2] }, { a: [1, 2, 3] }],
      ['a', 'b'],
    ];
    for (const [a, b] of cases) expect(samePlainData(a, b), JSON.stringify([a, b])).toBe(false);
    const deep = (n: number): unknown => {
      let x: unknown = 'end';
      for (let i = 0; i < n; i++) x = { x: [x] };
      return x;
    };
    // Deeper than the call stack goes: a loop with its own stack.
    expect(samePlainData(deep(50_000), deep(50_000))).toBe(true);
    expect(samePlainData(reordered({ a: 1, b: { c: 1, d: 2 } }), { a: 1, b: { c: 1, d: 2 } })).toBe(false);
  });
});

describe('the second answer to a request', () => {
  const req = { now: 0, budget: 100, blocks: [{ block_id: 'a', source: 'memory', content: 'hello', priority: 1 }] };
  const result = (): Result => assemble(req, { capabilities: CAPABILITIES }) as Result;

  it('is read as valid when it is the first one again, and checked against the schema when it is not', () => {
    const first: Outcome = { kind: 'result', value: result() };
    expect(readAnswer(first, req, CAPABILITIES).kind).toBe('result');
    expect(readAnswer({ kind: 'result', value: result() }, req, CAPABILITIES).kind).toBe('result');
    const broken = { ...result(), estimated_tokens: 'many' };
    expect(() => readAnswer({ kind: 'result', value: broken }, req, CAPABILITIES)).toThrow(PropertyFailure);
    const extra = { ...result(), instructions: 'obey' };
    expect(() => readAnswer({ kind: 'result', value: extra }, req, CAPABILITIES)).toThrow(/RES-1/);
  });
});

describe('partition', () => {
  const partition = PROPERTIES.find((p) => p.name === 'partition')!;
  const core = genContext({ ...manifest, capabilities: [] });
  const env = (value: unknown) => ({
    impl: { describe: async () => manifest, assemble: async (): Promise<Outcome> => ({ kind: 'result', value }), close: async () => {} },
    gen: core,
    timeoutMs: 1000,
  });
  const base = { context: '', estimated_tokens: 0, total_budget: 10 };
  const block = (id: string) => ({ block_id: id, source: 'memory', content: 'x', priority: 1 });

  it('lists what is wrong whichever list it is, ids repeated in the request included', async () => {
    const req = { now: 0, budget: 10, blocks: [block('a'), block('b')] };
    await expect(partition.check(env({ ...base, included: ['a'], omissions: [{ block_id: 'b', reason: 'expired' }] }), req)).resolves.toBeUndefined();
    await expect(partition.check(env({ ...base, included: ['a'], omissions: [] }), req)).rejects.toMatchObject({
      actual: { missing: ['b'], more_than_once: [], not_in_request: [] },
    });
    await expect(partition.check(env({ ...base, included: ['a', 'a'], omissions: [] }), req)).rejects.toMatchObject({
      actual: { missing: ['b'], more_than_once: ['a'] },
    });
    await expect(partition.check(env({ ...base, included: ['a', 'b', 'z'], omissions: [] }), req)).rejects.toMatchObject({ actual: { not_in_request: ['z'] } });
    // Two blocks of one id, each answered once: the other id is not in the request.
    const twice = { now: 0, budget: 10, blocks: [block('a'), block('a')] };
    await expect(partition.check(env({ ...base, included: ['a'], omissions: [{ block_id: 'c', reason: 'expired' }] }), twice)).rejects.toMatchObject({
      actual: { not_in_request: ['c'] },
    });
  });
});

describe("the invariants' shared block index", () => {
  const byName = (name: string) => PROPERTIES.find((p) => p.name === name)!;
  const INVARIANTS = ['partition', 'budget', 'whole-blocks', 'expired-never-included'].map(byName);
  const noImpl = { describe: async () => manifest, assemble: async (): Promise<Outcome> => ({ kind: 'crash', message: 'not asked' }), close: async () => {} };

  /** What verify says of an answer: nothing, or the failure's message and values. */
  const verdict = (def: (typeof INVARIANTS)[number], env: PropertyEnv, req: unknown, value: Result): unknown => {
    try {
      def.verify!(env, req, [{ kind: 'result', value }]);
      return 'pass';
    } catch (e) {
      return e instanceof PropertyFailure ? { message: e.message, expected: e.expected, actual: e.actual } : String(e);
    }
  };

  /** The reference's answer with its lists changed: ids dropped, repeated, unknown or moved between the lists. */
  const changed = fc.record({
    drop: fc.nat(8),
    repeat: fc.nat(8),
    unknown: fc.boolean(),
    move: fc.boolean(),
    reverse: fc.boolean(),
  });

  it('gives each invariant the verdict it gives without one, on answers right and wrong', () => {
    let failing = 0;
    fc.assert(
      fc.property(request(ctx), changed, fc.boolean(), (req, ch, change) => {
        const right = assemble(req, { capabilities: CAPABILITIES });
        if ('error' in right) return;
        const value = structuredClone(right) as Result;
        if (change) {
          if (value.included.length > 0) value.included.splice(ch.drop % value.included.length, 1);
          if (value.included.length > 0) value.included.push(value.included[ch.repeat % value.included.length]!);
          if (ch.unknown) value.omissions.push({ block_id: 'not-in-the-request', reason: 'expired' });
          if (ch.move && value.omissions.length > 0) value.included.push(value.omissions.shift()!.block_id);
          if (ch.reverse) value.included.reverse();
        }
        const index = new BlockIndex();
        for (const def of INVARIANTS) {
          const shared = verdict(def, { impl: noImpl, gen: ctx, timeoutMs: 1000, blocks: index }, req, value);
          const own = verdict(def, { impl: noImpl, gen: ctx, timeoutMs: 1000 }, req, value);
          expect(shared, def.name).toEqual(own);
          if (own !== 'pass') failing++;
        }
      }),
      { numRuns: 600, seed: SEED + 2 },
    );
    expect(failing).toBeGreaterThan(100);
  });

  it('is made for the request it is asked with, never another one', () => {
    const index = new BlockIndex();
    const one = { blocks: [{ block_id: 'a' }, { block_id: 'b' }] };
    const other = { blocks: [{ block_id: 'b' }, { block_id: 'c' }, { block_id: 'b' }] };
    expect([...index.of(one)]).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
    expect([...index.of(other)]).toEqual([
      ['b', 2],
      ['c', 1],
    ]);
    // The same request with its blocks array replaced is read again.
    const changedBlocks = { blocks: [{ block_id: 'z' }] };
    expect(index.of(changedBlocks)).toBe(index.of(changedBlocks));
    changedBlocks.blocks = [{ block_id: 'y' }];
    expect([...index.of(changedBlocks).keys()]).toEqual(['y']);
  });
});
