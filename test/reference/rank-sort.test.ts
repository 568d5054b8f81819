/**
 * The keyed sort behind large tiered requests must give exactly the order of
 * the ranking-key comparator (TIER-3, NUM-4, NUM-5), which the small-request
 * tests pin by hand. Inputs are generated from a fixed seed.
 */
import { describe, expect, it, vi } from 'vitest';
import { assemble, isErrorAnswer } from '../../reference/index.js';
import type { Block } from '../../reference/index.js';
import { hasOnlyLowUnits, rankComparator } from '../../reference/order.js';
import { KEYED_SORT_MIN, plainRankOrder } from '../../reference/rank-sort.js';
import { normalize } from '../../reference/validate.js';
import type { NormalBlock } from '../../reference/validate.js';

// A spy on the keyed sort as the tiered pass imports it, to see which requests take it.
vi.mock('../../reference/rank-sort.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../reference/rank-sort.js')>();
  return { ...mod, plainRankOrder: vi.fn(mod.plainRankOrder) };
});

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const normal = (blocks: Block[]): NormalBlock[] => normalize({ now: 0, budget: 0, blocks }).blocks;
const plainComparator = rankComparator({ prefer_high_confidence: false, prefer_recency: false });
const ids = (blocks: NormalBlock[]): string[] => blocks.map((b) => b.block_id);
/** The oracle: the comparator on copies whose ids all take its exact code-point path (the keyed sort sets lowId on the blocks it passes to it). */
const byComparator = (blocks: NormalBlock[]): string[] => ids(blocks.map((b) => ({ ...b, lowId: false })).sort(plainComparator));
const byKeys = (blocks: NormalBlock[]): string[] => Array.from(plainRankOrder(blocks), (i) => blocks[i]!.block_id);

/** Unique ids over an alphabet that makes UTF-16 and code-point order disagree. */
function trickyBlocks(n: number, seed: number, prefix: string, priorities: number[]): Block[] {
  const rand = prng(seed);
  const units = ['a', 'b', '\u0000', '\uD83D', '\uDE00', '\uDE01', '\uFF5E', '\uE000', '\uD800', '\uDFFF', '\u{1F600}', '~'];
  const seen = new Set<string>();
  const blocks: Block[] = [];
  while (blocks.length < n) {
    let id = prefix;
    const len = 1 + Math.floor(rand() * 6);
    for (let j = 0; j < len; j++) id += units[Math.floor(rand() * units.length)];
    if (seen.has(id)) continue;
    seen.add(id);
    blocks.push({ block_id: id, source: 's', content: '', priority: priorities[Math.floor(rand() * priorities.length)]! });
  }
  return blocks;
}

describe('plainRankOrder', () => {
  it('orders like the comparator for ids full of surrogates, U+E000..U+FFFF and NUL, with priority ties and -0', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const blocks = normal(trickyBlocks(600, seed, seed % 2 ? '' : 'mem-\uD83D', [0, -0, 1, 2.5, -3, 1e300, -1e-300]));
      expect(byKeys(blocks), `seed ${seed}`).toEqual(byComparator(blocks));
    }
  });

  it('orders like the comparator when every priority differs', () => {
    const rand = prng(7);
    const blocks = normal(Array.from({ length: 700 }, (_, i) => ({ block_id: `b-${i}`, source: 's', content: '', priority: rand() * 100 - 50 })));
    expect(byKeys(blocks)).toEqual(byComparator(blocks));
  });

  it('orders like the comparator when ids share a long prefix and differ only after it, or are prefixes of each other', () => {
    const ids = ['x', 'x\u0000', 'x\u0000\u0000', 'xa', 'xaa', 'xaaa', 'xaaaa', 'xaaab', 'xaab', 'x\uFFFF', 'x\u{10000}', 'x\uD800'];
    const blocks = normal(ids.map((id, i) => ({ block_id: `shared/prefix/${id}`, source: 's', content: '', priority: i % 2 })));
    expect(byKeys(blocks)).toEqual(byComparator(blocks));
    expect(byKeys(normal([]))).toEqual([]);
  });

  it('orders like the comparator when ids differ only after their first eight units', () => {
    const rand = prng(11);
    const blocks = normal(Array.from({ length: 900 }, (_, i) => ({
      block_id: `${i % 2 ? 'a' : 'b'}${'0'.repeat(9)}${Math.floor(rand() * 1e6)}-${i}`, source: 's', content: '', priority: i % 3,
    })));
    expect(byKeys(blocks)).toEqual(byComparator(blocks));
  });

  it('orders like the comparator when equal id keys run on across a change of priority', () => {
    // The a-ids all share their first nine units, so within every priority they have one key; the last
    // a-id of one priority and the first of the next tie on that key, but not on the priority.
    const rand = prng(13);
    const blocks = normal([
      ...Array.from({ length: 600 }, (_, i) => ({ block_id: `a${'0'.repeat(8)}${Math.floor(rand() * 1e6)}-${i}`, source: 's', content: '', priority: i % 3 })),
      { block_id: 'b', source: 's', content: '', priority: 3 },
    ]);
    expect(byKeys(blocks)).toEqual(byComparator(blocks));
  });

  it('orders like the comparator over an alphabet of thousands of units', () => {
    const rand = prng(12);
    const blocks = normal(Array.from({ length: 2000 }, (_, i) => ({
      block_id: Array.from({ length: 4 }, () => String.fromCharCode(0x4e00 + Math.floor(rand() * 3000))).join('') + i, source: 's', content: '', priority: i % 2,
    })));
    expect(byKeys(blocks)).toEqual(byComparator(blocks));
  });

  it('gives the same order when the comparator may use the engine\'s own < for ids without high units', () => {
    for (let seed = 30; seed < 36; seed++) {
      const plain = normal([...trickyBlocks(300, seed, '', [1, 2]), ...trickyBlocks(300, seed + 100, 'x', [1, 2])]);
      const shortcut = normal(plain.map((b) => ({ block_id: b.block_id, source: b.source, content: b.content, priority: b.priority })));
      for (const b of shortcut) b.lowId = hasOnlyLowUnits(b.block_id);
      expect(shortcut.filter((b) => b.lowId).length).toBeGreaterThan(10);
      expect(ids(shortcut.sort(plainComparator)), `seed ${seed}`).toEqual(byComparator(plain));
    }
  });

  it('is used, and agrees with a small request, above the size threshold', () => {
    // The same selection decided by the comparator (small request) and by the keyed sort (large request):
    // padding blocks of priority -1 that never fit do not change which of the others get in.
    const rand = prng(99);
    const core: Block[] = trickyBlocks(40, 5, 'k', [1, 2]).map((b) => ({ ...b, source: 'coverage', content: 'x'.repeat(4 * (1 + Math.floor(rand() * 5))) }));
    const padding: Block[] = Array.from({ length: KEYED_SORT_MIN }, (_, i) => ({ block_id: `pad-${i}`, source: 'coverage', content: 'p'.repeat(4000), priority: -1 }));
    const keyed = vi.mocked(plainRankOrder);
    keyed.mockClear();
    const small = assemble({ now: 0, budget: 40, blocks: core }, { capabilities: [] });
    expect(keyed).not.toHaveBeenCalled();
    const large = assemble({ now: 0, budget: 40, blocks: [...padding, ...core] }, { capabilities: [] });
    expect(keyed).toHaveBeenCalledTimes(1);
    if (isErrorAnswer(small) || isErrorAnswer(large)) throw new Error('unexpected error answer');
    expect(small.omissions.length).toBeGreaterThan(0);
    expect(large.included).toEqual(small.included);
    expect(large.omissions.filter((o) => !o.block_id.startsWith('pad-'))).toEqual(small.omissions);
  });
});
