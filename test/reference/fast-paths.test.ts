/**
 * Every fast path of the reference against its plain version (plain.ts), as
 * properties at 10,000 runs with fixed seeds, on inputs built to hit what the
 * fast paths take apart: ids with surrogates, U+E000..U+FFFF, NUL and long
 * shared prefixes, duplicates, priorities with -0, ties and extreme doubles.
 * Then the same fast paths where requests take them, against small requests.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { LARGE } from '../../reference/block-arrays.js';
import { uniqueIdOrder } from '../../reference/id-order.js';
import { assemble, isErrorAnswer, validateRequest } from '../../reference/index.js';
import type { Block, Result } from '../../reference/index.js';
import { plainRankFromIdOrder, renderOrderFromRanked } from '../../reference/order.js';
import { stableSort } from '../../reference/merge-sort.js';
import { stableSortByKey } from '../../reference/radix.js';
import { byPriorityStable } from '../../reference/rank-sort.js';
import { codePointComparator } from '../../reference/unicode.js';
import { readRequest } from '../../reference/validate.js';
import * as plain from './plain.js';
import { prng } from '../../bench/prng.js';

// Spies on the fast paths as the reference imports them, to see which requests take them.
vi.mock('../../reference/id-order.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../reference/id-order.js')>();
  return { ...mod, uniqueIdOrder: vi.fn(mod.uniqueIdOrder) };
});
vi.mock('../../reference/rank-sort.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../reference/rank-sort.js')>();
  return { ...mod, byPriorityStable: vi.fn(mod.byPriorityStable) };
});

const RUNS = 10_000;
const SEED = 20261201;

/** Units where UTF-16 and code-point order disagree, lone surrogates, NUL, and plain ASCII. */
const UNITS = ['a', 'b', '0', '9', '~', '\u0000', '\u4e00', '\uD83D', '\uDE00', '\uDE01', '\uD800', '\uDFFF', '\uE000', '\uFF5E', '\u{1F600}'];
const PREFIXES = ['', 'x', 'mem-\uD83D', 'shared/prefix/', 'a'.repeat(9), '\uFF5E'];
const suffix = fc.array(fc.constantFrom(...UNITS), { maxLength: 12 }).map((us) => us.join(''));
/** Thousands of distinct units: an alphabet too large for more than two units in a key word. */
const wideSuffix = fc.array(fc.integer({ min: 0x4e00, max: 0x4e00 + 3000 }), { minLength: 1, maxLength: 5 }).map((cs) => String.fromCharCode(...cs));
/** A list of ids sharing a prefix; short suffixes over a small alphabet make duplicates common. */
const idLists = fc
  .tuple(
    fc.constantFrom(...PREFIXES),
    fc.array(fc.oneof({ weight: 4, arbitrary: suffix }, { weight: 1, arbitrary: wideSuffix }), { minLength: 1, maxLength: 60 }),
  )
  .map(([prefix, suffixes]) => suffixes.map((s) => prefix + s));
const uniqueIdLists = idLists.map((ids) => [...new Set(ids)]);

/** Priorities with ties, -0 against 0, and doubles from the extremes. */
const priority = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(-0, 0, 0.1, 0.30000000000000004, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 2 ** 53, -(2 ** 53)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const opts = (offset: number): fc.Parameters<unknown> => ({ numRuns: RUNS, seed: SEED + offset });

describe('the fast paths against their plain versions, 10,000 runs each', () => {
  it('uniqueIdOrder: the code-point order of the ids when they are unique, null when two are equal (NUM-4, VAL-4)', () => {
    let duplicates = 0;
    fc.assert(
      fc.property(idLists, (ids) => {
        const fast = uniqueIdOrder(ids);
        if (!plain.allUnique(ids)) {
          duplicates++;
          expect(fast).toBeNull();
        } else expect(fast && Array.from(fast)).toEqual(plain.idOrder(ids));
      }),
      opts(1),
    );
    expect(duplicates).toBeGreaterThan(RUNS / 20);
  });

  it('byPriorityStable: by -priority, ties in the given order (NUM-5, RANK-1)', () => {
    const cases = fc.array(priority, { maxLength: 80 }).chain((ps) => fc.tuple(fc.constant(ps), fc.shuffledSubarray(ps.map((_, i) => i))));
    fc.assert(
      fc.property(cases, ([ps, indices]) => {
        expect(Array.from(byPriorityStable(indices, ps))).toEqual(plain.byPriorityStable(indices, ps));
      }),
      opts(2),
    );
  });

  it('stableSortByKey: ascending 64-bit keys, ties in the given order', () => {
    // Words from a few values, from single bits and from anywhere: digits that all keys share, and digits that differ.
    const word = fc.oneof(
      fc.constantFrom(0, 1, 0x7ff, 0x800, 0x80000000, 0xffffffff),
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.integer({ min: 0, max: 15 }).map((b) => 2 ** b),
    );
    const cases = fc.array(fc.tuple(word, word), { maxLength: 80 });
    fc.assert(
      fc.property(cases, (keys) => {
        const indices = keys.map((_, i) => i);
        const low = keys.map(([lo]) => lo);
        const high = keys.map(([, hi]) => hi);
        const fast = stableSortByKey({ indices: Uint32Array.from(indices), low: Uint32Array.from(low), high: Uint32Array.from(high) });
        const want = plain.byKeyStable(indices, low, high);
        expect(Array.from(fast.indices)).toEqual(want);
        expect(Array.from(fast.low)).toEqual(want.map((i) => low[i]));
        expect(Array.from(fast.high)).toEqual(want.map((i) => high[i]));
      }),
      opts(3),
    );
  });

  it('plainRankFromIdOrder: the taken blocks by (-priority, block_id) (TIER-3)', () => {
    const cases = uniqueIdLists.chain((ids) =>
      fc.tuple(
        fc.constant(ids),
        fc.array(priority, { minLength: ids.length, maxLength: ids.length }),
        fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }),
      ),
    );
    fc.assert(
      fc.property(cases, ([ids, ps, taken]) => {
        const fast = plainRankFromIdOrder(Uint32Array.from(plain.idOrder(ids)), taken.map(Number), 1, ps);
        const want = plain.rankOrder(
          ids.map((_, i) => i).filter((i) => taken[i]),
          ps,
          ids,
        );
        expect(Array.from(fast)).toEqual(want);
      }),
      opts(4),
    );
  });

  it('stableSort: the order of Array.prototype.sort, equal items in their given order', () => {
    // Items that compare equal on their key but differ in position: only a stable sort keeps them in order.
    const items = fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 80 }).map((keys) => keys.map((key, at) => ({ key, at })));
    const byKey = (a: { key: number }, b: { key: number }): number => a.key - b.key;
    fc.assert(
      fc.property(items, (xs) => {
        expect(stableSort(xs.slice(), byKey)).toEqual(xs.slice().sort(byKey));
      }),
      opts(7),
    );
  });

  it('codePointComparator: the order of plain code points, with < where it is exact (NUM-4)', () => {
    fc.assert(
      fc.property(idLists, (strings) => {
        const cmp = codePointComparator(strings);
        const all = strings.map((_, i) => i);
        for (const i of all) expect(cmp(i, i)).toBe(0);
        expect(all.slice().sort(cmp)).toEqual(all.slice().sort((x, y) => plain.byCodePoints(strings[x]!, strings[y]!)));
      }),
      opts(6),
    );
  });

  it('renderOrderFromRanked: blocks in ranking order to (source, -priority, block_id) (REN-1)', () => {
    // More sources than validation looks up along its list before it hashes them.
    const sources = ['memory', 'coverage', 'Memory', '\uFF5E', '\u{1F600}', '\uD800', 'a', 'a\u0000', 'episodes', '\uE000', 'b\uDBFF\uDFFF'];
    // Ids must be valid here: not empty.
    const blocks = uniqueIdLists
      .map((ids) => ids.filter((id) => id !== ''))
      .chain((ids) =>
        fc.tuple(
          ...ids.map((id) =>
            fc.record({ block_id: fc.constant(id), source: fc.constantFrom(...sources), content: fc.constant(''), priority: fc.integer({ min: 0, max: 3 }) }),
          ),
        ),
      );
    fc.assert(
      fc.property(blocks, (bs) => {
        const r = readRequest({ now: 0, budget: 0, blocks: bs }).request!;
        const all = bs.map((_, i) => i);
        const ranked = plain.rankOrder(all, r.priority, r.ids);
        const want = plain.renderOrder(
          all,
          bs.map((b) => b.source),
          r.priority,
          r.ids,
        );
        expect(renderOrderFromRanked(r, ranked)).toEqual(want);
      }),
      opts(5),
    );
  });
});

/** Unique ids over units where UTF-16 and code-point order disagree, with priorities drawn from `priorities`. */
function trickyBlocks(n: number, seed: number, prefix: string, priorities: number[]): Block[] {
  const rand = prng(seed);
  const seen = new Set<string>();
  const blocks: Block[] = [];
  while (blocks.length < n) {
    let id = prefix;
    const len = 1 + Math.floor(rand() * 6);
    for (let j = 0; j < len; j++) id += UNITS[Math.floor(rand() * UNITS.length)];
    if (seen.has(id)) continue;
    seen.add(id);
    blocks.push({
      block_id: id,
      source: 'coverage',
      content: 'x'.repeat(4 * (1 + Math.floor(rand() * 5))),
      priority: priorities[Math.floor(rand() * priorities.length)]!,
    });
  }
  return blocks;
}

function result(req: unknown): Result {
  const a = assemble(req);
  if (isErrorAnswer(a)) throw new Error(a.error.message);
  return a;
}

describe('large requests take the fast paths and answer as small ones do', () => {
  const spies = { ids: vi.mocked(uniqueIdOrder), priorities: vi.mocked(byPriorityStable) };
  // Padding that never fits, ranked last: it does not change which of the other blocks get in.
  const padding = (): Block[] =>
    Array.from({ length: LARGE }, (_, i) => ({ block_id: `~pad-${String(i).padStart(4, '0')}`, source: 'coverage', content: 'p'.repeat(4000), priority: -10 }));

  it.each([
    ['sorted ids', true],
    ['shuffled ids', false],
  ])('tiered, %s: the same selection, omissions and warnings as the small request', (_, sorted) => {
    for (let seed = 1; seed <= 5; seed++) {
      const core = trickyBlocks(60, seed, seed % 2 ? '' : 'mem-\uD83D', [0, -0, 1, 2.5, -3]);
      const blocks = [...core, ...padding()];
      if (sorted) blocks.sort((a, b) => plain.byCodePoints(a.block_id, b.block_id));
      else blocks.reverse();
      spies.ids.mockClear();
      spies.priorities.mockClear();
      const small = result({ now: 0, budget: 60, blocks: core });
      expect(spies.ids).not.toHaveBeenCalled();
      expect(spies.priorities).not.toHaveBeenCalled();
      const large = result({ now: 0, budget: 60, blocks });
      expect(spies.ids).toHaveBeenCalledTimes(sorted ? 0 : 1);
      expect(spies.priorities).toHaveBeenCalledTimes(1);
      expect(small.omissions.length).toBeGreaterThan(0);
      expect(large.context).toBe(small.context);
      expect(large.segments).toEqual(small.segments);
      expect(large.omissions.filter((o) => !o.block_id.startsWith('~pad-'))).toEqual(small.omissions);
      expect(large.warnings).toEqual(small.warnings);
    }
  });

  it('ranked: the same packing as the small request', () => {
    const core = trickyBlocks(60, 9, 'r', [0, -0, 1, 2.5, -3]);
    const small = result({ profile: 'ranked', now: 0, budget: 100, blocks: core });
    spies.priorities.mockClear();
    const large = result({ profile: 'ranked', now: 0, budget: 100, blocks: [...padding(), ...core] });
    expect(spies.priorities).toHaveBeenCalledTimes(1);
    expect(small.omissions.length).toBeGreaterThan(0);
    expect(large.context).toBe(small.context);
    expect(large.omissions.filter((o) => !o.block_id.startsWith('~pad-'))).toEqual(small.omissions);
  });

  it('with preferences, a large request is ranked by the comparator', () => {
    const blocks = [...trickyBlocks(60, 3, '', [1, 2]), ...padding()];
    spies.priorities.mockClear();
    const prefer = result({ now: 0, budget: 60, blocks, constraints: { prefer_recency: true } });
    expect(spies.priorities).not.toHaveBeenCalled();
    // Every created_at is absent (0): the preference ties everywhere and changes nothing.
    expect(prefer.context).toBe(result({ now: 0, budget: 60, blocks }).context);
  });
});

describe('VAL-4 on large requests: the fast check finds every duplicate, and the plain pass names them', () => {
  const blocks = (ids: string[]): Block[] => ids.map((id) => ({ block_id: id, source: 'memory', content: 'x', priority: 1 }));
  const sortedIds = Array.from({ length: LARGE + 10 }, (_, i) => `b-${String(i).padStart(4, '0')}`);

  it('accepts unique ids, sorted or not, and ids that differ only in a lone surrogate', () => {
    expect(validateRequest({ now: 0, budget: 1, blocks: blocks(sortedIds) })).toEqual([]);
    expect(validateRequest({ now: 0, budget: 1, blocks: blocks([...sortedIds].reverse()) })).toEqual([]);
    expect(validateRequest({ now: 0, budget: 1, blocks: blocks([...sortedIds, 'a\uD800', 'a\uDC00']) })).toEqual([]);
  });

  it.each([
    ['side by side in sorted ids', 100, 101],
    ['far apart in sorted ids', 3, 500],
    ['in shuffled ids', 400, 7],
  ])('reports a duplicate %s at its second use, naming the first', (_, first, second) => {
    const ids = [...sortedIds];
    if (first > second) ids.reverse();
    ids[second] = ids[first]!;
    const problems = validateRequest({ now: 0, budget: 1, blocks: blocks(ids) });
    const [at, again] = first < second ? [first, second] : [second, first];
    expect(problems).toEqual([{ path: `/blocks/${again}/block_id`, message: `duplicate block_id (first used by /blocks/${at})` }]);
  });

  it('reports a duplicate with every other problem, in block order', () => {
    const bs: unknown[] = blocks([...sortedIds].reverse());
    bs[5] = { ...(bs[5] as Block), block_id: sortedIds[0] };
    bs[3] = { ...(bs[3] as Block), priority: 'high' };
    expect(validateRequest({ now: 0, budget: 1, blocks: bs }).map((p) => p.path)).toEqual(['/blocks/3/priority', `/blocks/${sortedIds.length - 1}/block_id`]);
  });
});

describe('large requests reuse their typed arrays, and only the outermost assembly does', () => {
  const request = (seed: number, n: number): { now: number; budget: number; blocks: Block[] } => ({
    now: 0,
    budget: 20 * n,
    blocks: trickyBlocks(n, seed, 'kept', [0, 1, 2, 2.5]).map((b, i) => ({
      ...b,
      source: ['memory', 'coverage', 'episodes', 'knowledge'][i % 4]!,
      ttl_seconds: i % 7 === 0 ? 1 : 0,
      created_at: i % 7 === 0 ? -10 : 0,
    })),
  });

  it('answers a large request the same after a larger and a smaller one', () => {
    const big = request(1, LARGE * 3);
    const mid = request(2, LARGE * 2);
    const small = request(3, LARGE);
    const first = result(mid);
    result(big);
    expect(result(mid)).toEqual(first);
    result(small);
    expect(result(mid)).toEqual(first);
    expect(validateRequest(mid)).toEqual([]);
    expect(result(mid)).toEqual(first);
  });

  it('answers the outer request right when a getter of it assembles another large request', () => {
    const outer = request(4, LARGE * 2);
    const want = result(outer);
    let nested: Result | undefined;
    const hostile = outer.blocks.map((b, i) =>
      i !== 100
        ? b
        : {
            ...b,
            get source(): string {
              nested = result(request(5, LARGE * 3));
              return b.source;
            },
          },
    );
    expect(result({ ...outer, blocks: hostile })).toEqual(want);
    expect(nested?.included.length).toBeGreaterThan(0);
    expect(nested).toEqual(result(request(5, LARGE * 3)));
  });
});
