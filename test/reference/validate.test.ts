/** SPEC section 3: every rule, each problem at its JSON Pointer, all of them at once, never a throw. */
import { describe, expect, it } from 'vitest';
import { assemble, invalidRequest, isErrorAnswer, pointer, validateRequest } from '../../reference/index.js';
import { NOW, answer, block, ok, refused } from './helpers.js';

type Obj = Record<string, unknown>;
const base = (): Obj => ({ now: NOW, budget: 100, blocks: [{ block_id: 'b-1', source: 'memory', content: 'hello', priority: 1 }] });
const withBlock = (extra: Obj): Obj => ({ now: NOW, budget: 100, blocks: [{ block_id: 'b-1', source: 'memory', content: 'hello', priority: 1, ...extra }] });
const paths = (req: unknown): string[] => validateRequest(req).map((p) => p.path);

/** The answer must be invalid_request with exactly these problem paths. */
function invalidAt(req: unknown, want: string[]): void {
  expect(paths(req)).toEqual(want);
  const e = refused(req);
  expect(e.code).toBe('invalid_request');
  expect(e.message.length).toBeGreaterThan(0);
  expect(e.problems?.map((p) => p.path)).toEqual(want);
  for (const p of e.problems ?? []) expect(p.message.length).toBeGreaterThan(0);
}

describe('a request that is not an object', () => {
  it.each([
    ['null', null],
    ['an array', []],
    ['a string', '{}'],
    ['a number', 42],
    ['undefined', undefined],
  ])('is invalid at the root when it is %s', (_, req) => invalidAt(req, ['']));
});

describe('VAL-1 now', () => {
  it('is required', () => {
    const r = base();
    delete r.now;
    invalidAt(r, ['/now']);
  });

  it.each([
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['a string', '1700000000'],
    ['null', null],
  ])('is invalid when it is %s', (_, now) => invalidAt({ ...base(), now }, ['/now']));

  it('accepts any finite number, negative or fractional', () => {
    expect(paths({ ...base(), now: -1.5 })).toEqual([]);
    expect(paths({ ...base(), now: 1e308 })).toEqual([]);
  });
});

describe('VAL-2 budget', () => {
  it('is required', () => {
    const r = base();
    delete r.budget;
    invalidAt(r, ['/budget']);
  });

  it.each([
    ['negative', -1],
    ['fractional', 120.5],
    ['2^53', 2 ** 53],
    ['1e308', 1e308],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['a numeric string', '120'],
    ['a boolean', true],
  ])('is invalid when it is %s', (_, budget) => invalidAt({ ...base(), budget }, ['/budget']));

  it('accepts 0, 120.0 (the integer 120) and 2^53 - 1', () => {
    expect(paths({ ...base(), budget: 0 })).toEqual([]);
    expect(paths(JSON.parse('{"now": 1, "budget": 120.0, "blocks": []}'))).toEqual([]);
    expect(paths({ ...base(), budget: Number.MAX_SAFE_INTEGER })).toEqual([]);
  });

  it('assembles at budget 2^53 - 1 with exact tier budgets and reports it as total_budget', () => {
    const r = ok({ now: NOW, budget: Number.MAX_SAFE_INTEGER, blocks: [block('b', 'memory', 'x')] });
    expect(r.total_budget).toBe(Number.MAX_SAFE_INTEGER);
    expect(r.included).toEqual(['b']);
  });
});

describe('VAL-3 blocks', () => {
  it('is required', () => {
    const r = base();
    delete r.blocks;
    invalidAt(r, ['/blocks']);
  });

  it('must be an array', () => {
    invalidAt({ ...base(), blocks: { 0: base().blocks } }, ['/blocks']);
  });

  it.each([
    ['null', null],
    ['a number', 1],
    ['an array', []],
    ['a string', 'b-1'],
  ])('rejects an item that is %s', (_, item) => invalidAt({ ...base(), blocks: [item] }, ['/blocks/0']));

  it('rejects a hole in a sparse array as a missing block', () => {
    const blocks: unknown[] = [];
    blocks[1] = { block_id: 'b-1', source: 'memory', content: 'x', priority: 1 };
    invalidAt({ ...base(), blocks }, ['/blocks/0']);
    expect(validateRequest({ ...base(), blocks })[0]?.message).toBe('each block must be an object, got nothing (a hole or undefined)');
  });

  it('accepts an empty array', () => {
    expect(paths({ ...base(), blocks: [] })).toEqual([]);
  });
});

describe('VAL-4 required block members', () => {
  it.each(['block_id', 'source', 'content', 'priority'])('requires %s', (key) => {
    const b: Obj = { block_id: 'b-1', source: 'memory', content: 'hello', priority: 1 };
    delete b[key];
    invalidAt({ ...base(), blocks: [b] }, [`/blocks/0/${key}`]);
  });

  it.each([
    ['an empty block_id', { block_id: '' }, 'block_id'],
    ['a numeric block_id', { block_id: 7 }, 'block_id'],
    ['an empty source', { source: '' }, 'source'],
    ['a null source', { source: null }, 'source'],
    ['a numeric content', { content: 5 }, 'content'],
    ['a NaN priority', { priority: NaN }, 'priority'],
    ['an infinite priority', { priority: -Infinity }, 'priority'],
    ['a string priority', { priority: '1' }, 'priority'],
  ])('rejects %s', (_, extra, key) => invalidAt(withBlock(extra), [`/blocks/0/${key}`]));

  it('accepts an empty content, which costs 1 token', () => {
    const r = ok({ now: NOW, budget: 10, blocks: [block('b', 'memory', '')] });
    expect(r.estimated_tokens).toBe(1);
    expect(r.context).toBe('[memory \u00b7 b]\n');
  });

  it('rejects a duplicate block_id at the second occurrence instead of deduplicating', () => {
    const b = { block_id: 'b-1', source: 'memory', content: 'x', priority: 1 };
    invalidAt({ ...base(), blocks: [b, { ...b, block_id: 'b-2' }, { ...b }] }, ['/blocks/2/block_id']);
    expect(validateRequest({ ...base(), blocks: [b, { ...b }] })[0]?.message).toContain('/blocks/0');
  });

  it('treats ids that differ only in a lone surrogate as distinct', () => {
    const b = { source: 'memory', content: 'x', priority: 1 };
    expect(
      paths({
        ...base(),
        blocks: [
          { ...b, block_id: 'a\uD800' },
          { ...b, block_id: 'a\uDC00' },
        ],
      }),
    ).toEqual([]);
  });
});

describe('VAL-5 optional block members', () => {
  it.each([
    ['an infinite created_at', { created_at: Infinity }, 'created_at'],
    ['a string created_at', { created_at: '2024-01-01' }, 'created_at'],
    ['a negative ttl_seconds', { ttl_seconds: -1 }, 'ttl_seconds'],
    ['a NaN ttl_seconds', { ttl_seconds: NaN }, 'ttl_seconds'],
    ['a string pinned', { pinned: 'true' }, 'pinned'],
    ['a numeric pinned', { pinned: 1 }, 'pinned'],
    ['an unknown status', { status: 'archived' }, 'status'],
    ['a wrongly cased status', { status: 'Active' }, 'status'],
    ['a numeric status', { status: 0 }, 'status'],
    ['a confidence above 1', { confidence: 1.5 }, 'confidence'],
    ['a negative confidence', { confidence: -0.1 }, 'confidence'],
    ['a NaN confidence', { confidence: NaN }, 'confidence'],
  ])('rejects %s', (_, extra, key) => invalidAt(withBlock(extra), [`/blocks/0/${key}`]));

  it('accepts the boundary values: confidence 0 and 1, ttl 0, every status, a negative created_at', () => {
    for (const extra of [{ confidence: 0 }, { confidence: 1 }, { ttl_seconds: 0 }, { created_at: -1e12 }, { pinned: false }]) {
      expect(paths(withBlock(extra)), JSON.stringify(extra)).toEqual([]);
    }
    for (const status of ['active', 'disputed', 'superseded', 'stale']) expect(paths(withBlock({ status }))).toEqual([]);
  });

  it('does not check the created_at date range in tiered', () => {
    expect(paths(withBlock({ created_at: -1e15 }))).toEqual([]);
    expect(paths(withBlock({ created_at: 1e15 }))).toEqual([]);
  });
});

describe('VAL-6 profile', () => {
  it.each([
    ['Tiered', 'Tiered'],
    ['RANKED', 'RANKED'],
    ['an unknown name', 'beliefs'],
    ['a number', 1],
    ['null', null],
  ])('rejects %s', (_, profile) => invalidAt({ ...base(), profile }, ['/profile']));

  it('accepts tiered and ranked, and an absent profile means tiered', () => {
    expect(paths({ ...base(), profile: 'tiered' })).toEqual([]);
    expect(paths({ ...base(), profile: 'ranked' })).toEqual([]);
    expect(ok(base() as never)).toEqual(ok({ ...base(), profile: 'tiered' } as never));
  });
});

describe('VAL-7 constraints', () => {
  it.each([
    ['an array', []],
    ['null', null],
    ['a string', 'none'],
  ])('rejects constraints that are %s', (_, constraints) => invalidAt({ ...base(), constraints }, ['/constraints']));

  it.each([
    ['a string must_include', { must_include: 'b-1' }, '/constraints/must_include'],
    ['an empty id in must_include', { must_include: ['b-1', ''] }, '/constraints/must_include/1'],
    ['a numeric id in exclude', { exclude: [3] }, '/constraints/exclude/0'],
    ['an object exclude', { exclude: {} }, '/constraints/exclude'],
    ['max_segments 0', { max_segments: 0 }, '/constraints/max_segments'],
    ['a negative max_segments', { max_segments: -1 }, '/constraints/max_segments'],
    ['a fractional max_segments', { max_segments: 1.5 }, '/constraints/max_segments'],
    ['a string max_segments', { max_segments: '2' }, '/constraints/max_segments'],
    ['an infinite max_segments', { max_segments: Infinity }, '/constraints/max_segments'],
    ['a string include_disputed', { include_disputed: 'yes' }, '/constraints/include_disputed'],
    ['a numeric include_superseded', { include_superseded: 1 }, '/constraints/include_superseded'],
    ['a null prefer_recency', { prefer_recency: null }, '/constraints/prefer_recency'],
    ['a string prefer_high_confidence', { prefer_high_confidence: 'false' }, '/constraints/prefer_high_confidence'],
  ])('rejects %s', (_, constraints, path) => invalidAt({ ...base(), constraints }, [path]));

  it('accepts an empty object, null max_segments and any integer max_segments from 1', () => {
    for (const constraints of [{}, { max_segments: null }, { max_segments: 1 }, { max_segments: 1e20 }, { must_include: [], exclude: [] }]) {
      expect(paths({ ...base(), constraints }), JSON.stringify(constraints)).toEqual([]);
    }
  });
});

describe('VAL-8 non-finite numbers', () => {
  it('reports NaN, Infinity and -Infinity wherever a number is expected, all at once', () => {
    const req = {
      now: NaN,
      budget: Infinity,
      blocks: [{ block_id: 'b', source: 's', content: 'c', priority: -Infinity, created_at: NaN, ttl_seconds: Infinity, confidence: NaN }],
      constraints: { max_segments: NaN },
    };
    invalidAt(req, [
      '/now',
      '/budget',
      '/blocks/0/priority',
      '/blocks/0/created_at',
      '/blocks/0/ttl_seconds',
      '/blocks/0/confidence',
      '/constraints/max_segments',
    ]);
  });
});

describe('VAL-9 what the ranked profile cannot honour', () => {
  const ranked = (extra: Obj, more: Obj = {}): Obj => ({ ...withBlock(extra), profile: 'ranked', ...more });

  it('rejects a constraints member, even an empty one', () => {
    invalidAt(ranked({}, { constraints: {} }), ['/constraints']);
  });

  it('rejects a pinned block but accepts pinned: false', () => {
    invalidAt(ranked({ pinned: true }), ['/blocks/0/pinned']);
    expect(paths(ranked({ pinned: false }))).toEqual([]);
  });

  it.each(['disputed', 'superseded', 'stale'])('rejects a %s block but accepts an active one', (status) => {
    invalidAt(ranked({ status }), ['/blocks/0/status']);
    expect(paths(ranked({ status: 'active' }))).toEqual([]);
  });

  it('reports a non-boolean pinned once, not also as unsupported', () => {
    invalidAt(ranked({ pinned: 'true' }), ['/blocks/0/pinned']);
  });

  it('reports an unknown status once, not also as unsupported', () => {
    invalidAt(ranked({ status: 'archived' }), ['/blocks/0/status']);
  });

  it('accepts created_at from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z and rejects one second beyond either end', () => {
    expect(paths(ranked({ created_at: -62135596800 }))).toEqual([]);
    expect(paths(ranked({ created_at: 253402300799 }))).toEqual([]);
    expect(paths(ranked({ created_at: 253402300799.999 }))).toEqual([]);
    invalidAt(ranked({ created_at: -62135596801 }), ['/blocks/0/created_at']);
    invalidAt(ranked({ created_at: 253402300800 }), ['/blocks/0/created_at']);
  });

  it('checks nothing profile-specific when the profile itself is invalid', () => {
    expect(paths({ ...withBlock({ pinned: true, status: 'stale' }), profile: 'Ranked', constraints: {} })).toEqual(['/profile']);
  });
});

describe('problem reporting', () => {
  it('reports every problem at once, in request order', () => {
    const req = {
      profile: 'x',
      now: 'soon',
      budget: -5,
      blocks: [{ block_id: '', source: 'memory', content: 'c', priority: 1 }, 7, { block_id: 'b', source: '', content: null, priority: NaN, status: 'gone' }],
      constraints: { exclude: [''] },
    };
    invalidAt(req, [
      '/profile',
      '/now',
      '/budget',
      '/blocks/0/block_id',
      '/blocks/1',
      '/blocks/2/source',
      '/blocks/2/content',
      '/blocks/2/priority',
      '/blocks/2/status',
      '/constraints/exclude/0',
    ]);
  });

  it('names the first problem in the message and counts the rest', () => {
    const e = refused({ now: NaN, budget: -1, blocks: 3 });
    expect(e.message).toMatch(/^\/now: /);
    expect(e.message).toContain('2 more problems');
    expect(refused({ now: NaN, budget: 1, blocks: [] }).message).not.toContain('more');
  });

  it('says "1 more problem" in the singular for two problems', () => {
    expect(refused({ now: NaN, budget: -1, blocks: [] }).message).toMatch(/\(and 1 more problem\)$/);
  });

  it('builds a generic message when invalidRequest is given no problem', () => {
    expect(invalidRequest([]).error).toEqual({ code: 'invalid_request', message: 'invalid request', problems: [] });
  });

  it('escapes ~ and / in JSON Pointer segments (RFC 6901)', () => {
    expect(pointer('a/b', 'c~d', 0)).toBe('/a~1b/c~0d/0');
    expect(pointer()).toBe('');
  });
});

describe('values that must not crash', () => {
  it('ignores a 100000-deep nested unknown member without recursing into it', () => {
    let deep: Obj = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const plain = ok(base() as never);
    const req = base();
    req.extra = deep;
    (req.blocks as Obj[])[0]!.extra = deep;
    expect(assemble(req)).toEqual(plain);
  });

  it('answers invalid_request, never throws, when reading the request throws', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
      },
    );
    const e = refused(hostile);
    expect(e.code).toBe('invalid_request');
    expect(e.message).toContain('boom');
  });

  it('answers invalid_request for a revoked Proxy', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(refused(proxy).code).toBe('invalid_request');
  });

  it('answers invalid_request when a block has a throwing getter', () => {
    const b = {
      block_id: 'b',
      source: 'memory',
      priority: 1,
      get content(): string {
        throw new TypeError('no content');
      },
    };
    const a = assemble({ now: NOW, budget: 10, blocks: [b] });
    expect(isErrorAnswer(a) && a.error.code).toBe('invalid_request');
  });

  it('answers invalid_request when a thrown value is not an Error', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw 'plain string';
        },
      },
    );
    expect(refused(hostile).message).toContain('plain string');
  });

  it('treats an own __proto__ member from JSON as an unknown member', () => {
    const req = JSON.parse(
      '{"now": 1, "budget": 10, "__proto__": {"budget": -1}, "blocks": [{"block_id": "b", "source": "memory", "content": "x", "priority": 1, "__proto__": null}]}',
    );
    expect(answer(req)).toMatchObject({ included: ['b'] });
  });
});

describe('REQ-3 unknown members', () => {
  it('do not change the answer at any level', () => {
    const plain = ok(base() as never);
    const noisy: Obj = { ...base(), instructions: 'drop everything', constraints: { frobnicate: true } };
    (noisy.blocks as Obj[])[0] = { ...(noisy.blocks as Obj[])[0], tools: ['rm'], system: 'x' };
    expect(ok(noisy as never)).toEqual(plain);
  });
});
