/**
 * A differential failure cites the requirements behind the members that
 * differ, narrowed to what the request used, and says expected vs actual in
 * its message (so the terminal shows it): one ranked expiry bug must not turn
 * every requirement red in the coverage matrix.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { formatFailure } from '../../running/console.js';
import { requirementsBehind } from '../../judging/properties/blame.js';
import { runProperties } from '../../judging/properties/index.js';
import type { Manifest } from '../../protocol/types.js';
import { assemble } from '../../reference/index.js';

const ALL: Manifest = {
  name: 'rewritten-reference',
  version: '0',
  profiles: ['tiered', 'ranked'],
  capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned'],
};

type Req = { profile?: string; now: number; blocks: { created_at?: number; ttl_seconds?: number }[] };

/** The reference, except that in ranked a block expires at now == created_at + ttl_seconds (EXP-1 says strictly after). */
function rankedInclusiveExpiry(request: unknown): unknown {
  const r = structuredClone(request) as Req;
  if (r?.profile === 'ranked' && Array.isArray(r.blocks)) {
    for (const b of r.blocks) {
      const ttl = b?.ttl_seconds ?? 0;
      if (ttl > 0 && r.now === (b.created_at ?? 0) + ttl) b.ttl_seconds = ttl / 2;
    }
  }
  return assemble(r, { capabilities: ALL.capabilities as never });
}

describe('requirementsBehind', () => {
  const tiered = { now: 0, budget: 10, blocks: [{ block_id: 'a', source: 's', content: 'x', priority: 1 }] };
  it('the same blocks in another order is rendering (REN-1); other blocks is selection', () => {
    expect(requirementsBehind(['included'], tiered, { included: ['a', 'b'] }, { included: ['b', 'a'] })).toEqual(['REN-1']);
    const sel = requirementsBehind(['included'], tiered, { included: ['a'] }, { included: ['b'] });
    expect(sel).toEqual(expect.arrayContaining(['TIER-3', 'TIER-4', 'RES-2']));
    expect(sel.filter((id) => /^(PIN|CON|LIF|EXP|RANK)-/.test(id))).toEqual([]);
  });

  it('cites a capability only when the request used it', () => {
    const pinned = { ...tiered, blocks: [{ ...tiered.blocks[0], pinned: true }] };
    expect(requirementsBehind(['included'], pinned, { included: ['a'] }, { included: [] })).toEqual(expect.arrayContaining(['PIN-1']));
    expect(requirementsBehind(['warnings'], tiered, {}, {})).toEqual(['WC-4']);
    // A context with markers: MRK-1..3 only when the implementation declares them, and never for ranked.
    expect(requirementsBehind(['context'], tiered, { context: 'a' }, { context: 'b' })).not.toContain('MRK-2');
    expect(requirementsBehind(['context'], tiered, { context: 'a' }, { context: 'b' }, ['omission_markers'])).toEqual(
      expect.arrayContaining(['REN-2', 'MRK-1', 'MRK-2', 'MRK-3']),
    );
    expect(
      requirementsBehind(['context'], { ...(tiered as object), profile: 'ranked' }, { context: 'a' }, { context: 'b' }, ['omission_markers']),
    ).not.toContain('MRK-2');
  });

  it('a refusal on one side is the failure, whatever else differs', () => {
    expect(requirementsBehind(['error', 'context', 'included'], tiered, { error: 'pinned_overflow' }, { context: '' })).toEqual(['PIN-2', 'ERR-1', 'ERR-2']);
  });
});

describe('a ranked expiry bug through the differential property', () => {
  it('fails with expected vs actual in the message and cites expiry, not every requirement', async () => {
    const impl = fromFunctions(rankedInclusiveExpiry, undefined, ALL);
    const [r] = await runProperties(impl, ALL, { runs: 300, seed: 7, timeoutMs: 5000, only: ['differential'] });
    expect(r).toMatchObject({ id: 'property/differential', status: 'fail' });
    expect(r!.requirements).toEqual(expect.arrayContaining(['EXP-1', 'RANK-6']));
    expect(r!.requirements.filter((id) => /^(PIN|CON|LIF|WC|TIER|REN)-/.test(id))).toEqual([]);
    // The terminal shows what differs, member by member.
    const text = formatFailure(r!);
    expect(text).toMatch(/\n {4}omissions: expected \[\["a","budget"\]\], got \[\["a","expired"\]\]\n/);
  });
});
