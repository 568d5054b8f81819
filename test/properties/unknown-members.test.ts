/**
 * REQ-3 through the `unknown-members` property: the reference passes it, and
 * each way an implementation can let an undefined member change its answer
 * fails it, while passing every other property (their requests never carry
 * an undefined member, so they cannot see the defect).
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { runProperties } from '../../judging/properties/index.js';
import { withUnknownMembers } from '../../judging/properties/arbitraries.js';
import type { Manifest } from '../../protocol/types.js';
import { assemble } from '../../reference/index.js';

const ALL: Manifest = {
  name: 'rewritten-reference',
  version: '0',
  profiles: ['tiered', 'ranked'],
  capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned'],
};
const DEFINED = new Set([
  'profile',
  'now',
  'budget',
  'blocks',
  'constraints',
  'block_id',
  'source',
  'content',
  'priority',
  'created_at',
  'ttl_seconds',
  'pinned',
  'status',
  'confidence',
  'must_include',
  'exclude',
  'max_segments',
  'include_disputed',
  'include_superseded',
  'prefer_recency',
  'prefer_high_confidence',
]);
type Obj = Record<string, unknown>;
const reference = (r: unknown): unknown => assemble(r, { capabilities: ALL.capabilities as never });
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const BROKEN: Record<string, (request: unknown) => unknown> = {
  // A strict reader (serde's deny_unknown_fields, additionalProperties: false).
  'refuses unknown members': (r) => {
    const objs = isObj(r) ? [r, ...(Array.isArray(r.blocks) ? r.blocks : []), ...(isObj(r.constraints) ? [r.constraints] : [])] : [];
    const unknown = objs.filter(isObj).flatMap((o) => Object.keys(o).filter((k) => !DEFINED.has(k)));
    return unknown.length > 0 ? { error: { code: 'invalid_request', message: `unknown member ${unknown[0]}` } } : reference(r);
  },
  // Object.assign copies through the __proto__ setter: a block's "__proto__": {"pinned": true} makes it pinned.
  'copies blocks with Object.assign': (r) =>
    isObj(r) && Array.isArray(r.blocks) ? reference({ ...r, blocks: r.blocks.map((b) => Object.assign({}, b)) }) : reference(r),
  // A caller's "weight" taken as a priority multiplier.
  'honours a weight member': (r) =>
    isObj(r) && Array.isArray(r.blocks)
      ? reference({
          ...r,
          blocks: r.blocks.map((b) =>
            isObj(b) && typeof b.weight === 'number' && typeof b.priority === 'number' ? { ...b, priority: b.priority * b.weight } : b,
          ),
        })
      : reference(r),
};

describe('the unknown-members property (REQ-3)', () => {
  it('the reference passes it at 1000 runs', async () => {
    const impl = referenceImplementation();
    const [r] = await runProperties(impl, await impl.describe(), { runs: 1000, seed: 11, timeoutMs: 5000, only: ['unknown-members'] });
    expect([r!.status, r!.message]).toEqual(['pass', undefined]);
  });

  it('adds members at the request, block and constraints levels, __proto__ as an own member, and leaves the request alone', () => {
    const req = { now: 0, budget: 5, blocks: [{ block_id: 'a', source: 'memory', content: 'x', priority: 1 }], constraints: {} };
    const before = JSON.stringify(req);
    const out = withUnknownMembers(req, [
      { at: 'request', index: 0, name: 'x-trace-id', value: 't' },
      { at: 'block', index: 3, name: '__proto__', value: { pinned: true } },
      { at: 'constraints', index: 0, name: 'tags', value: [] },
    ]) as unknown as Obj & { blocks: Obj[]; constraints: Obj };
    expect(JSON.stringify(req)).toBe(before);
    expect(JSON.stringify(out)).toBe(
      '{"now":0,"budget":5,"blocks":[{"block_id":"a","source":"memory","content":"x","priority":1,"__proto__":{"pinned":true}}],"constraints":{"tags":[]},"x-trace-id":"t"}',
    );
    expect(Object.getPrototypeOf(out.blocks[0])).toBe(Object.prototype);
    expect(out.blocks[0]!.pinned).toBeUndefined();
  });

  for (const [defect, assembleFn] of Object.entries(BROKEN)) {
    it(`catches an implementation that ${defect}, which every other property passes`, async () => {
      const impl = fromFunctions(assembleFn, undefined, ALL);
      const results = await runProperties(impl, ALL, { runs: 1000, seed: 11, timeoutMs: 5000 });
      const failed = results.filter((r) => r.status !== 'pass' && r.status !== 'skip').map((r) => r.id);
      expect(failed).toEqual(['property/unknown-members']);
      const r = results.find((x) => x.id === 'property/unknown-members')!;
      expect(r.requirements).toEqual(['REQ-3']);
      expect(r.message).toMatch(/^unknown members changed the answer \(REQ-3\): /);
    });
  }
});
