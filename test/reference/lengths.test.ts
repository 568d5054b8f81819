/**
 * A ContentLengths table is a cache of NUM-1 and nothing else: with one, the
 * reference answers and validates exactly as without, whatever the table
 * was filled from before; and the reference never writes to the request it
 * reads (the in-process adapter hands it the caller's own request, uncopied).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { request, genContext } from '../../judging/properties/arbitraries.js';
import type { GenRequest } from '../../judging/properties/arbitraries.js';
import { invalidRequest } from '../../judging/properties/corruptions.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { assemble, CAPABILITIES, codePointLength, ContentLengths, validateRequest } from '../../reference/index.js';
import type { Manifest } from '../../protocol/types.js';

const SEED = 20261202;
const RUNS = 2000;
const manifest = { name: 'x', version: '1', profiles: ['tiered', 'ranked'], capabilities: [...CAPABILITIES] } as Manifest;
const ctx = genContext(manifest);
const options = { capabilities: CAPABILITIES };

/** Strings where UTF-16 units and code points differ: pairs, lone surrogates of both halves, and plain text. */
const text = fc
  .array(fc.constantFrom('a', ' ', '\u00e9', '\u4e2d', '\u{1F600}', '\uD83D', '\uDE00', '\uDBFF', '\uDC00'), { maxLength: 30 })
  .map((us) => us.join(''));

describe('ContentLengths', () => {
  it('gives the code-point length of the string it is asked about, counted again when block i holds another', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(5), text), { maxLength: 40 }), (asks) => {
        const table = new ContentLengths();
        for (const [i, content] of asks) expect(table.of(i, content)).toBe(codePointLength(content));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('counts a content once however often it is asked', () => {
    const table = new ContentLengths();
    const content = 'x\u{1F600}'.repeat(10);
    expect(table.of(0, content)).toBe(20);
    // A string equal to the one counted, built apart from it: the same length, whichever object it is.
    expect(table.of(0, 'x\u{1F600}'.repeat(5) + 'x\u{1F600}'.repeat(5))).toBe(20);
    expect(table.of(0, 'y')).toBe(1);
  });
});

describe('the reference with a table of lengths', () => {
  const requests = fc.oneof(
    request(ctx),
    invalidRequest(ctx).map((x) => x.request as GenRequest),
  );

  it('answers and validates as without one, the table fresh or filled from another request', () => {
    const stale = new ContentLengths();
    fc.assert(
      fc.property(requests, requests, (req, other) => {
        const fresh = new ContentLengths();
        expect(validateRequest(req, fresh)).toEqual(validateRequest(req));
        expect(assemble(req, { ...options, lengths: fresh })).toEqual(assemble(req, options));
        // The table now holds req's contents by index; another request at the same indices is counted afresh.
        expect(assemble(other, { ...options, lengths: fresh })).toEqual(assemble(other, options));
        expect(assemble(req, { ...options, lengths: stale })).toEqual(assemble(req, options));
      }),
      { numRuns: RUNS, seed: SEED + 1 },
    );
  });

  it('sees a content changed in place since the table counted it', () => {
    const req = { now: 0, budget: 100, blocks: [{ block_id: 'a', source: 'memory', content: 'x'.repeat(8), priority: 1 }] };
    const lengths = new ContentLengths();
    expect(assemble(req, { lengths })).toMatchObject({ estimated_tokens: 2, included: ['a'] });
    req.blocks[0]!.content = 'x'.repeat(800); // 200 tokens (NUM-2): more than the whole budget
    expect(assemble(req, { lengths })).toEqual(assemble(req));
    expect(assemble(req, { lengths })).toMatchObject({ estimated_tokens: 0, included: [] });
  });
});

/** `value` behind proxies that record every write, however deep: set, define, delete, prototype, extensibility. */
function watched(value: unknown, writes: string[], path = ''): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const note = (what: string, key?: PropertyKey): boolean => {
    writes.push(`${what} ${path}/${String(key ?? '')}`);
    return true;
  };
  return new Proxy(value, {
    get: (t, k, r) => watched(Reflect.get(t, k, r), writes, `${path}/${String(k)}`),
    set: (_t, k) => note('set', k),
    defineProperty: (_t, k) => note('define', k),
    deleteProperty: (_t, k) => note('delete', k),
    setPrototypeOf: () => note('setPrototypeOf'),
    preventExtensions: () => note('preventExtensions'),
  });
}

describe('the reference never writes to its request', () => {
  const check = (req: unknown): void => {
    const writes: string[] = [];
    const answer = assemble(watched(req, writes), options);
    validateRequest(watched(req, writes), new ContentLengths());
    expect(writes).toEqual([]);
    expect(answer).toEqual(assemble(structuredClone(req), options));
  };

  it('on every request of the corpus', () => {
    const cases = loadCorpus().cases;
    expect(cases.length).toBeGreaterThan(300);
    for (const c of cases) check(c.request);
  });

  it('on random requests, valid and invalid', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          request(ctx),
          invalidRequest(ctx).map((x) => x.request),
        ),
        (req) => check(req),
      ),
      { numRuns: RUNS, seed: SEED + 2 },
    );
  });
});
