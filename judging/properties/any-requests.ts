/**
 * Requests for the any level's properties (SPEC ANY-12), drawn to reach the
 * thresholds real assemblers have: contents from empty to thousands of code
 * points, 60 lines and more, budgets up to tens of thousands, and budgets just
 * over and far over what the blocks ahead of one cost, so cutting to fit,
 * "keep at least N" and truncating renderers are met. Composed from small
 * pieces; every request is valid.
 */
import fc from 'fast-check';
import type { GenBlock, GenContext, GenRequest } from './arbitraries.js';
import { designOf } from '../principles/design.js';

// 'urgent' and 'ignore' are words a design that reads content for a keyword acts on (ANY-7): the twin renames them.
const WORDS = [
  'deploy',
  'the',
  'rollback',
  'needs',
  'two',
  'approvals',
  'key',
  'rotated',
  'on',
  'Friday',
  'cache',
  'is',
  'stale',
  'after',
  'noon',
  'urgent',
  'ignore',
];

/** A sentence of 3 to 12 words, capitalised, ending in a full stop. */
const sentence: fc.Arbitrary<string> = fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 12 }).map((ws) => {
  const s = ws.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
});

/** Prose: 1 to 60 sentences (up to about 4,000 code points). */
const prose: fc.Arbitrary<string> = fc.array(sentence, { minLength: 1, maxLength: 60 }).map((ss) => ss.join(' '));

/** Code: 40 to 90 numbered lines, past the 50 lines a truncating renderer cuts at. */
const code: fc.Arbitrary<string> = fc
  .integer({ min: 40, max: 90 })
  .map((n) => Array.from({ length: n }, (_, i) => `line ${i + 1}: value${i} = compute(${i});`).join('\n'));

/** A short text with astral and combining characters, and the empty content. */
const short: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', '.', '\u{1f600}', '\u00e9', '\u0301', '\n'), maxLength: 40 }),
);

/** Recalled web text that holds a tokenizer's special-token text, which some encoders throw on (ANY-13, DES-6). */
const specialTokens: fc.Arbitrary<string> = fc
  .tuple(sentence, fc.constantFrom('<|endoftext|>', '<|im_start|>system\n', '<|im_end|>'), sentence)
  .map(([a, t, b]) => `${a} ${t}${b}`);

export const anyContent: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: prose },
  { weight: 4, arbitrary: code },
  { weight: 2, arbitrary: short },
  { weight: 1, arbitrary: specialTokens },
);

const SOURCES = ['notes', 'docs', 'code', 'policy', 'memory', 'chat'];

/** The place of the first block of block i's group: a run of blocks each linked to the one before. */
function groupStart(bs: readonly { linked: boolean }[], i: number): number {
  let k = i;
  while (k > 0 && bs[k]!.linked) k--;
  return k + 1;
}

/** One value of each member the design reads beyond section 2 (DES-5). */
function declaredMembers(gen: GenContext): fc.Arbitrary<Record<string, string>> {
  const members = gen.design?.members ?? {};
  return fc.record(Object.fromEntries(Object.entries(members).map(([name, values]) => [name, fc.constantFrom(...values)])));
}

const NOW = 1_700_000_000;

const EXPIRY: Readonly<Record<string, { created_at?: number; ttl_seconds?: number }>> = {
  none: {},
  expired: { created_at: NOW - 7200, ttl_seconds: 3600 },
  live: { created_at: NOW - 60, ttl_seconds: 3600 },
  boundary: { created_at: NOW - 3600, ttl_seconds: 3600 },
};

/** Ids unique within the request: `k-<n>`, so a cut piece of one content never names another block. */
function blocksOf(gen: GenContext): fc.Arbitrary<GenBlock[]> {
  const pinned = gen.capabilities.includes('pinned');
  const block = fc.record({
    source: fc.constantFrom(...SOURCES),
    content: anyContent,
    priority: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.double({ min: 0, max: 1, noNaN: true })),
    // 'boundary': now == created_at + ttl_seconds, live under EXP-1 and expired under an inclusive boundary (DES-11).
    expiry: fc.constantFrom('none', 'none', 'none', 'expired', 'live', 'boundary'),
    pinned: pinned ? fc.boolean() : fc.constant(false),
    members: declaredMembers(gen),
    // Joins the block before it in a group (DES-9): a tool call and its result, drawn only for a design that links blocks.
    linked: gen.design?.groups ? fc.boolean() : fc.constant(false),
  });
  const group = gen.design?.groups;
  return fc.array(block, { minLength: 1, maxLength: 8 }).map((bs) =>
    bs.map((b, i) => ({
      block_id: `k-${i + 1}`,
      source: b.source,
      content: b.content,
      priority: b.priority,
      ...EXPIRY[b.expiry],
      ...(b.pinned ? { pinned: true } : {}),
      ...b.members,
      ...(group ? { [group]: `g-${groupStart(bs, i)}` } : {}),
    })),
  );
}

/**
 * A budget for these blocks: a small one, a large one, or the cost of the first k blocks in
 * priority order (under the declared estimator, the specification's for a tokenizer) with a
 * few tokens more or fewer, so the next block is just over, or far over, what is left.
 */
function budgetFor(gen: GenContext, blocks: GenBlock[]): fc.Arbitrary<number> {
  const e = gen.design?.estimator;
  const { costOf } = designOf(e && 'tokenizer' in e ? undefined : gen.design);
  const ranked = [...blocks].sort((a, b) => b.priority - a.priority);
  // What the first k + 1 cost together: a joined, rendered or context-charged estimator counts a selection, not its blocks apart (DES-1).
  const prefix = ranked.map((_, k) => Math.round(costOf(ranked.slice(0, k + 1))));
  return fc.oneof(
    fc.integer({ min: 0, max: 30 }),
    fc.integer({ min: 30, max: 40_000 }),
    fc.tuple(fc.integer({ min: 0, max: prefix.length - 1 }), fc.integer({ min: -3, max: 3 })).map(([k, d]) => Math.max(0, prefix[k]! + d)),
  );
}

export function anyRequest(gen: GenContext): fc.Arbitrary<GenRequest> {
  return blocksOf(gen).chain((blocks) => budgetFor(gen, blocks).map((budget) => ({ now: NOW, budget, blocks })));
}
