/**
 * Invalid requests made by corrupting exactly one member of a valid one, so a
 * failure points at the rule broken (VAL-*). Members of undeclared
 * capabilities are never corrupted: an implementation without them may ignore
 * those members (REQ-3), and the property must not fail it for that.
 */
import fc from 'fast-check';
import { MAX_BUDGET } from '../../reference/index.js';
import type { GenContext } from './arbitraries.js';
import { request } from './arbitraries.js';
import { keptDraws } from './drawn.js';

type Mutable = Record<string, unknown>;

interface Corruption {
  /** The rule broken, as in SPEC.md. */
  rule: string;
  what: string;
  needs?: 'pinned' | 'lifecycle' | 'constraints' | 'ranked';
  /** How many blocks the valid request must have for this corruption to apply. */
  blocks?: 1 | 2;
  apply(r: Mutable, i: number): unknown;
}

const blockAt = (r: Mutable, i: number): Mutable => {
  const blocks = r.blocks as Mutable[];
  return blocks[i % blocks.length]!;
};
const setMember =
  (key: string, value: unknown) =>
  (r: Mutable, i: number): unknown => ((blockAt(r, i)[key] = value), r);
const dropMember =
  (key: string) =>
  (r: Mutable, i: number): unknown => (delete blockAt(r, i)[key], r);

/**
 * The request made `ranked` and then broken by `breakIt`. The capability
 * members are dropped first: a ranked request must differ from a valid one
 * only in the member under test.
 */
function asRanked(breakIt: (r: Mutable) => void) {
  return (r: Mutable): unknown => {
    delete r.constraints;
    for (const b of r.blocks as Mutable[]) {
      delete b.pinned;
      delete b.status;
      delete b.confidence;
    }
    r.profile = 'ranked';
    breakIt(r);
    return r;
  };
}
const addBlock =
  (block: Mutable) =>
  (r: Mutable): void =>
    void (r.blocks as Mutable[]).push({ ...block });

const CORRUPTIONS: readonly Corruption[] = [
  { rule: 'REQ-1', what: 'the request is an array', apply: () => [] },
  { rule: 'REQ-1', what: 'the request is a string', apply: () => 'tiered' },
  { rule: 'REQ-1', what: 'the request is null', apply: () => null },
  { rule: 'VAL-1', what: 'now is missing', apply: (r) => (delete r.now, r) },
  { rule: 'VAL-1', what: 'now is a string', apply: (r) => ((r.now = '1700000000'), r) },
  { rule: 'VAL-1', what: 'now is null', apply: (r) => ((r.now = null), r) },
  { rule: 'VAL-8', what: 'now is NaN', apply: (r) => ((r.now = NaN), r) },
  { rule: 'VAL-8', what: 'now is Infinity', apply: (r) => ((r.now = Infinity), r) },
  { rule: 'VAL-2', what: 'budget is negative', apply: (r) => ((r.budget = -1), r) },
  { rule: 'VAL-2', what: 'budget is fractional', apply: (r) => ((r.budget = 10.5), r) },
  { rule: 'VAL-2', what: 'budget is a string', apply: (r) => ((r.budget = '100'), r) },
  { rule: 'VAL-2', what: 'budget is above 2^53 - 1', apply: (r) => ((r.budget = MAX_BUDGET + 1), r) },
  { rule: 'VAL-2', what: 'budget is missing', apply: (r) => (delete r.budget, r) },
  { rule: 'VAL-3', what: 'blocks is an object', apply: (r) => ((r.blocks = {}), r) },
  { rule: 'VAL-3', what: 'blocks is missing', apply: (r) => (delete r.blocks, r) },
  { rule: 'VAL-3', what: 'a block is a number', apply: (r) => ((r.blocks as unknown[]).push(5), r) },
  { rule: 'VAL-3', what: 'a block is null', apply: (r) => ((r.blocks as unknown[]).push(null), r) },
  { rule: 'VAL-4', what: 'block_id is empty', blocks: 1, apply: setMember('block_id', '') },
  { rule: 'VAL-4', what: 'block_id is missing', blocks: 1, apply: dropMember('block_id') },
  { rule: 'VAL-4', what: 'block_id is a number', blocks: 1, apply: setMember('block_id', 7) },
  {
    rule: 'VAL-4',
    what: 'block_id is duplicated',
    blocks: 2,
    apply: (r) => {
      const blocks = r.blocks as Mutable[];
      blocks[1]!.block_id = blocks[0]!.block_id;
      return r;
    },
  },
  { rule: 'VAL-4', what: 'source is empty', blocks: 1, apply: setMember('source', '') },
  { rule: 'VAL-4', what: 'source is missing', blocks: 1, apply: dropMember('source') },
  { rule: 'VAL-4', what: 'content is missing', blocks: 1, apply: dropMember('content') },
  { rule: 'VAL-4', what: 'content is null', blocks: 1, apply: setMember('content', null) },
  { rule: 'VAL-4', what: 'content is a number', blocks: 1, apply: setMember('content', 12) },
  { rule: 'VAL-4', what: 'priority is missing', blocks: 1, apply: dropMember('priority') },
  { rule: 'VAL-4', what: 'priority is a string', blocks: 1, apply: setMember('priority', '1') },
  { rule: 'VAL-8', what: 'priority is NaN', blocks: 1, apply: setMember('priority', NaN) },
  { rule: 'VAL-8', what: 'priority is -Infinity', blocks: 1, apply: setMember('priority', -Infinity) },
  { rule: 'VAL-5', what: 'created_at is a string', blocks: 1, apply: setMember('created_at', 'yesterday') },
  { rule: 'VAL-5', what: 'ttl_seconds is negative', blocks: 1, apply: setMember('ttl_seconds', -1) },
  { rule: 'VAL-5', what: 'ttl_seconds is null', blocks: 1, apply: setMember('ttl_seconds', null) },
  { rule: 'VAL-5', what: 'pinned is a string', needs: 'pinned', blocks: 1, apply: setMember('pinned', 'yes') },
  { rule: 'VAL-5', what: 'status is unknown', needs: 'lifecycle', blocks: 1, apply: setMember('status', 'archived') },
  { rule: 'VAL-5', what: 'status has the wrong case', needs: 'lifecycle', blocks: 1, apply: setMember('status', 'Active') },
  { rule: 'VAL-5', what: 'confidence is above 1', needs: 'constraints', blocks: 1, apply: setMember('confidence', 1.5) },
  { rule: 'VAL-6', what: 'profile is unknown', apply: (r) => ((r.profile = 'fast'), r) },
  { rule: 'VAL-6', what: 'profile has the wrong case', apply: (r) => ((r.profile = 'Tiered'), r) },
  { rule: 'VAL-7', what: 'constraints is an array', needs: 'constraints', apply: (r) => ((r.constraints = []), r) },
  { rule: 'VAL-7', what: 'max_segments is 0', needs: 'constraints', apply: (r) => ((r.constraints = { ...(r.constraints as object), max_segments: 0 }), r) },
  {
    rule: 'VAL-7',
    what: 'must_include holds an empty id',
    needs: 'constraints',
    apply: (r) => ((r.constraints = { ...(r.constraints as object), must_include: [''] }), r),
  },
  {
    rule: 'VAL-7',
    what: 'a flag is a string',
    needs: 'constraints',
    apply: (r) => ((r.constraints = { ...(r.constraints as object), prefer_recency: 'true' }), r),
  },
  { rule: 'VAL-9', what: 'a ranked request has constraints', needs: 'ranked', apply: asRanked((r) => (r.constraints = {})) },
  {
    rule: 'VAL-9',
    what: 'a ranked request has a pinned block',
    needs: 'ranked',
    apply: asRanked(addBlock({ block_id: 'zz-pinned', source: 'notes', content: 'x', priority: 0, pinned: true })),
  },
  {
    rule: 'VAL-9',
    what: 'a ranked block is dated after 9999-12-31',
    needs: 'ranked',
    apply: asRanked(addBlock({ block_id: 'zz-late', source: 'notes', content: 'x', priority: 0, created_at: 253402300800 })),
  },
];

function applicableCorruptions(ctx: GenContext): Corruption[] {
  return CORRUPTIONS.filter((c) => {
    switch (c.needs) {
      case 'pinned':
      case 'lifecycle':
      case 'constraints':
        return ctx.capabilities.includes(c.needs);
      case 'ranked':
        return ctx.profiles.includes('ranked');
      default:
        return true;
    }
  });
}

export interface InvalidInput {
  request: unknown;
  rule: string;
  what: string;
}

/** A valid request with exactly one member broken. */
export function invalidRequest(ctx: GenContext): fc.Arbitrary<InvalidInput> {
  const all = applicableCorruptions(ctx);
  const requestLevel = all.filter((c) => c.blocks === undefined);
  // The valid request is the one the other properties draw at this state: drawn once for all of them (drawn.ts).
  return fc.tuple(keptDraws(request, ctx), fc.nat(all.length - 1), fc.nat(7)).map(([valid, k, i]) => {
    const r = structuredClone(valid) as unknown as Mutable;
    const n = (r.blocks as unknown[]).length;
    // Fall back to a request-level corruption when the request has too few blocks for this one.
    let c = all[k]!;
    if ((c.blocks ?? 0) > n) c = requestLevel[k % requestLevel.length]!;
    return { request: c.apply(r, i), rule: c.rule, what: c.what };
  });
}
