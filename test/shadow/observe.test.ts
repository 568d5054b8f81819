/**
 * The observer in process gets the shadow's proofs: the observed function
 * answers every call exactly as the one it wraps (the same value, the same
 * exception, a promise settling alike), under concurrent calls; the judged
 * disagreements reach onDisagreement and the metrics by requirement; the
 * kept records reproduce the failures through replay; and nothing that goes
 * wrong in judging reaches the caller.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { replay } from '../../traffic/replay/run.js';
import { observe } from '../../traffic/shadow/observe.js';
import type { Disagreement } from '../../traffic/shadow/observe.js';
import type { Manifest } from '../../protocol/types.js';
import { assemble as defective, describe as describeDefective } from '../fixtures/shadow/defective-server.js';
import { atExpiry, trafficRequest } from './load.js';
import { parsePrometheus, valueAt } from './prometheus.js';

const manifest = describeDefective() as Manifest;
const dir = mkdtempSync(join(tmpdir(), 'ctxconform-observe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('observe(assemble, options)', () => {
  it('answers as the function it wraps, and reports the disagreements by requirement', async () => {
    const seen: Disagreement[] = [];
    const observed = observe(defective, { manifest, records: { dir: join(dir, 'records'), perKind: 2 }, onDisagreement: (d) => seen.push(d) });
    const N = 120;
    // Concurrent callers, as an agent's requests come: each awaits a tick between calls.
    const answers = new Map<number, string>();
    let next = 0;
    const caller = async (): Promise<void> => {
      while (next < N) {
        const i = next++;
        answers.set(i, JSON.stringify(observed(trafficRequest(i) as never)));
        await new Promise((r) => setImmediate(r));
      }
    };
    await Promise.all(Array.from({ length: 8 }, caller));
    for (const [i, a] of answers) expect(a).toBe(JSON.stringify(defective(trafficRequest(i))));
    expect(await observed.observer.drain(10_000)).toBe(true);

    const failing = [...answers.keys()].filter(atExpiry).length;
    expect(seen).toHaveLength(failing);
    expect(seen.every((d) => d.requirements.includes('EXP-1') && d.status === 'fail' && !d.known)).toBe(true);
    expect(seen.filter((d) => d.kept)).toHaveLength(2);
    expect(JSON.stringify(seen)).not.toMatch(/memo|alpha|req\d/);
    const p = parsePrometheus(await observed.observer.metrics());
    expect(valueAt(p, 'ctxconform_shadow_requests_total')).toBe(N);
    expect(valueAt(p, 'ctxconform_shadow_disagreements_total', { requirement: 'EXP-1', known: 'false' })).toBe(failing);
    expect(observed.observer.report().summary).toMatchObject({ total: N, fail: failing, pass: N - failing });
    await observed.observer.close();

    const files = readdirSync(join(dir, 'records'));
    expect(files).toHaveLength(1);
    const replayed = await replay({
      sources: [{ path: join(dir, 'records', files[0]!), label: files[0]! }],
      impl: fromFunctions(defective, undefined, manifest),
      manifest,
      timeoutMs: 5000,
      concurrency: 1,
      twice: true,
      shrink: 0,
      maxListed: 10,
    });
    expect(replayed.summary.fail).toBe(2);
    for (const c of replayed.cases) expect(c.requirements).toContain('EXP-1');
  });

  it('passes promises, exceptions and rejections through as they came', async () => {
    const boom = new Error('boom');
    const asyncObserved = observe(async (r: unknown) => defective(r), { manifest });
    const throwing = observe(
      (_r: unknown) => {
        throw boom;
      },
      { manifest },
    );
    const rejecting = observe(async (_r: unknown) => Promise.reject(boom), { manifest });
    try {
      expect(await asyncObserved(trafficRequest(3) as never)).toEqual(defective(trafficRequest(3)));
      expect(() => throwing(trafficRequest(1) as never)).toThrow(boom);
      await expect(rejecting(trafficRequest(1) as never)).rejects.toBe(boom);
      expect(await asyncObserved.observer.drain(20_000)).toBe(true);
      expect(await throwing.observer.drain(20_000)).toBe(true);
      expect(asyncObserved.observer.stats().judged.fail).toBe(1);
      // An exception from assemble is a crash of the call (the in-process adapter's rule), judged as such.
      expect(throwing.observer.stats().judged.total).toBe(1);
      expect(throwing.observer.stats().judged.pass).toBe(0);
    } finally {
      await Promise.all([asyncObserved.observer.close(), throwing.observer.close(), rejecting.observer.close()]);
    }
  });

  it('never lets judging reach the caller: an answer that is not data, a throwing onDisagreement, a full queue', async () => {
    const errors: string[] = [];
    const notData = observe((_r: unknown) => ({ context: '', included: [], f: () => 1 }), { manifest, onError: (m) => errors.push(m) });
    const answer = notData(trafficRequest(1) as never) as { f: () => number };
    expect(answer.f()).toBe(1);
    expect(errors.join('\n')).toMatch(/cannot be copied for the judge/);

    const loud = observe(defective, {
      manifest,
      onDisagreement: () => {
        throw new Error('the vendor callback failed');
      },
      onError: (m) => errors.push(m),
    });
    expect(loud(trafficRequest(0) as never)).toEqual(defective(trafficRequest(0)));
    await loud.observer.drain(20_000);
    expect(errors.join('\n')).toMatch(/onDisagreement threw: the vendor callback failed/);

    const tight = observe(defective, { manifest, queue: 1 });
    for (let i = 0; i < 50; i++) expect(tight(trafficRequest(i) as never)).toEqual(defective(trafficRequest(i)));
    await tight.observer.drain(20_000);
    const s = tight.observer.stats();
    expect(s.calls).toBe(50);
    expect(s.dropped).toBeGreaterThan(0);
    expect(s.judged.total + s.dropped).toBe(50);
    await Promise.all([notData.observer.close(), loud.observer.close(), tight.observer.close()]);
  });
});
