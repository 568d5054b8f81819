/**
 * The hand-off to the judge (SPEC SHD-4): bounded in number and in bytes, a
 * sample past either dropped at once (the caller counts it), the samples'
 * buffers moved to the judge's thread rather than copied, and every sample
 * handed over answered once, in batches.
 */
import { describe, expect, it } from 'vitest';
import { JudgeQueue } from '../../traffic/shadow/judge-queue.js';
import type { JudgedMessage } from '../../traffic/shadow/judge-queue.js';
import type { Manifest } from '../../protocol/types.js';
import { assemble, describe as describeReference } from '../../reference/index.js';

const manifest = describeReference() as Manifest;
const request = { now: 0, budget: 40, blocks: [{ block_id: 'a', source: 'notes', content: 'hello', priority: 1 }] };

/** A sample as the proxy makes it: the bytes in buffers of their own. */
function sample(seq: number): {
  s: { kind: 'bytes'; seq: number; at: number; request: Uint8Array; status: number; answer: Uint8Array };
  buffers: ArrayBuffer[];
} {
  const req = new Uint8Array(Buffer.from(JSON.stringify(request)));
  const answer = new Uint8Array(Buffer.from(JSON.stringify(assemble(request))));
  return {
    s: { kind: 'bytes', seq, at: performance.now(), request: req, status: 200, answer },
    buffers: [req.buffer as ArrayBuffer, answer.buffer as ArrayBuffer],
  };
}

describe('the judge queue', () => {
  it('takes samples up to its byte bound, drops the next, moves their buffers, and answers each taken one', async () => {
    const judged: JudgedMessage[] = [];
    const one = sample(1);
    const size = one.s.request.byteLength + one.s.answer.byteLength;
    const q = new JudgeQueue({ manifest, diagnoseEveryMs: 60_000, capacity: 100, capacityBytes: size * 2 + 1, onJudged: (m) => judged.push(m) });
    try {
      const [a, b, c] = [one, sample(2), sample(3)];
      expect(q.offer(a.s, a.buffers)).toBe(true);
      expect(q.offer(b.s, b.buffers)).toBe(true);
      expect(q.depthBytes).toBe(size * 2);
      // Past the byte bound: dropped, its buffers untouched.
      expect(q.offer(c.s, c.buffers)).toBe(false);
      expect(c.s.request.byteLength).toBeGreaterThan(0);
      expect(await q.drain(10_000)).toBe(true);
      // Moved, not copied: the offered buffers are detached on this side.
      expect(a.s.request.byteLength).toBe(0);
      expect(judged.map((m) => [m.seq, m.status])).toEqual([
        [1, 'pass'],
        [2, 'pass'],
      ]);
      expect([q.depth, q.depthBytes]).toEqual([0, 0]);
    } finally {
      await q.close();
    }
  });
});
