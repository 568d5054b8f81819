/**
 * Shrinking a recorded request: the smallest request on which the failure
 * still holds, the scrubbed one when the failure survives scrubbing, and no
 * more tries than allowed.
 */
import { describe, expect, it } from 'vitest';
import { shrinkRecorded, smaller } from '../../traffic/replay/shrink.js';

const big = {
  profile: 'tiered',
  now: 1000,
  budget: 300,
  trace: 'req-7781',
  blocks: Array.from({ length: 9 }, (_, i) => ({
    block_id: `mem-${i}`,
    source: i === 6 ? 'notes' : 'memory',
    content: `private text number ${i}`,
    priority: 1.5 + i,
    created_at: 900,
    ttl_seconds: 500,
    pinned: i === 2,
  })),
  constraints: { must_include: ['mem-6', 'mem-1'], exclude: ['mem-3'], max_segments: 4 },
};

type Req = typeof big;

describe('shrinkRecorded', () => {
  it('keeps only what the failure needs: one block, its members at their simplest, the smallest budget', async () => {
    // The "failure": a block of source notes, and a budget of at least 5.
    const fails = async (r: unknown): Promise<boolean> => {
      const q = r as Req;
      return Array.isArray(q.blocks) && q.blocks.some((b) => b.source === 'notes') && q.budget >= 5;
    };
    const s = await shrinkRecorded(big, fails);
    expect(s.request).toEqual({ now: 1000, budget: 5, blocks: [{ block_id: 'mem-6', source: 'notes', content: '', priority: 0 }] });
    expect(s.steps).toBeGreaterThan(5);
    expect(s.tries).toBeLessThanOrEqual(300);
  });

  it('takes the scrubbed request first when the failure survives it: no recorded text left', async () => {
    const fails = async (r: unknown): Promise<boolean> => (r as Req).blocks.length >= 2;
    const s = await shrinkRecorded(big, fails);
    const text = JSON.stringify(s.request);
    expect(text).not.toMatch(/private|mem-|notes|req-7781/);
    expect((s.request as Req).blocks).toHaveLength(2);
  });

  it('stops after maxTries, keeping the smallest found so far', async () => {
    let asked = 0;
    const s = await shrinkRecorded(
      big,
      async () => {
        asked++;
        return true;
      },
      { maxTries: 3 },
    );
    expect(asked).toBe(3);
    expect(s.tries).toBe(3);
    expect(JSON.stringify(s.request).length).toBeLessThan(JSON.stringify(big).length);
  });

  it('asks about a candidate that did not fail once: when it comes back in a later round, it is passed over', async () => {
    const asked = new Map<string, number>();
    const fails = async (r: unknown): Promise<boolean> => {
      const text = JSON.stringify(r);
      asked.set(text, (asked.get(text) ?? 0) + 1);
      const q = r as Req;
      return Array.isArray(q.blocks) && q.blocks.some((b) => b.source === 'notes') && q.budget >= 5;
    };
    const s = await shrinkRecorded(big, fails);
    expect(s.request).toEqual({ now: 1000, budget: 5, blocks: [{ block_id: 'mem-6', source: 'notes', content: '', priority: 0 }] });
    expect([...asked].filter(([, n]) => n > 1)).toEqual([]);
    expect(s.tries).toBe(asked.size);
  });

  it('a value that is not a request has nothing smaller; an implementation that throws is taken as not failing', async () => {
    expect([...smaller(42)]).toEqual([]);
    expect([...smaller(null)]).toEqual([]);
    const s = await shrinkRecorded({ now: 1, budget: 1, blocks: [] }, async () => {
      throw new Error('boom');
    });
    expect(s.steps).toBe(0);
  });

  it('every candidate is one step simpler: fewer blocks, members or code points, or a smaller budget or priority', () => {
    const size = (r: unknown): number => JSON.stringify(r).length;
    for (const c of smaller(big)) expect(size(c)).toBeLessThanOrEqual(size(big));
    const candidates = [...smaller(big)];
    expect(candidates.some((c) => (c as Req).budget === 150)).toBe(true);
    expect(candidates.some((c) => (c as Req).constraints === undefined)).toBe(true);
    // Dropping a block drops its id from must_include and exclude.
    const without6 = candidates.find((c) => (c as Req).blocks.length === 8 && !(c as Req).blocks.some((b) => b.block_id === 'mem-6')) as Req;
    expect(without6.constraints.must_include).toEqual(['mem-1']);
  });
});
