/**
 * `ctxconform/observe`: the shadow for an assembler that runs in the agent's
 * own process.
 *
 *   import { observe } from 'ctxconform/observe';
 *   const assemble = observe(myAssemble, { manifest: './manifest.json', sample: 0.1, onDisagreement: (d) => log.warn(d) });
 *
 * The returned function takes the same request and gives the same answer
 * (the same value, or the same exception) as the one it wraps; a sample of
 * its calls is judged in a worker thread exactly as the shadow proxy judges
 * one (judging.ts), and nothing that goes wrong in judging, in the bounded
 * queue to it, or in the caller's onDisagreement ever reaches the caller.
 * A call whose answer is a promise answers with a promise that settles as
 * that one does, once the answer has been copied for the judge.
 */
import { returnedOutcome, thrownOutcome } from '../../adapters/outcome.js';
import type { Manifest, Outcome, Report, Status, Summary } from '../../protocol/types.js';
import { readManifest } from '../../running/open.js';
import { JudgeQueue } from './judge-queue.js';
import type { Kept } from './records.js';
import { sampler } from './sampler.js';
import { ShadowTally } from './tally.js';

/** One judged call whose answer disagrees with the specification, as the judge scrubbed it. */
export interface Disagreement {
  /** Its kind: requirement ids, checks and status (the report's result id). */
  kind: string;
  status: Status;
  requirements: string[];
  /** The baseline expects this kind of failure. */
  known: boolean;
  /** The judge's message and the request, scrubbed: for the first of a kind and for each one kept as a record. */
  message?: string;
  request?: unknown;
  kept?: Kept;
}

export interface ObserveOptions {
  /** The implementation's manifest, or the path of its file. */
  manifest: Manifest | string;
  /** The fraction of calls judged, 0..1 (default 1). */
  sample?: number;
  onDisagreement?: (d: Disagreement) => void;
  /** Keep each disagreeing request, scrubbed, in `dir` (at most `perKind` per kind, default 10): files `ctxconform replay` reads. */
  records?: { dir: string; perKind?: number };
  /** Calls on their way to the judge at most; past that a sample is dropped and counted (default 10,000). */
  queue?: number;
  /** Known failures (a baseline file or a previous JSON report): reported with `known: true`. */
  baseline?: string;
  /** What went wrong in judging or in onDisagreement: told here, never thrown to the caller. */
  onError?: (message: string) => void;
}

export interface Observer {
  /** The counts so far: calls, sampled, judged (by status), dropped, judge errors. */
  stats(): { calls: number; sampled: number; dropped: number; judgeErrors: number; judged: Summary };
  /** The metrics in the Prometheus text format, for the process's own /metrics. */
  metrics(): Promise<string>;
  /** Wait until every sample handed over is judged, at most `ms` (default 2000): whether it drained. */
  drain(ms?: number): Promise<boolean>;
  /** The replay-shaped report of what was judged: one result per kind of disagreement. */
  report(): Report;
  /** Stop the judge; the function goes on answering, unobserved. */
  close(): Promise<void>;
}

export type Observed<F> = F & { readonly observer: Observer };

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  (typeof x === 'object' || typeof x === 'function') && x !== null && typeof (x as { then?: unknown }).then === 'function';

export function observe<F extends (request: never) => unknown>(assemble: F, o: ObserveOptions): Observed<F> {
  const manifest = typeof o.manifest === 'string' ? readManifest(o.manifest) : o.manifest;
  const take = sampler(o.sample ?? 1);
  const complain = (message: string): void => {
    try {
      o.onError?.(message);
    } catch {
      // The caller's own handler failing is no reason to reach the caller either.
    }
  };
  let queue: JudgeQueue | undefined;
  const tally = new ShadowTally({ manifest, ...(o.baseline !== undefined ? { baseline: o.baseline } : {}), queueDepth: () => queue?.depth ?? 0 });
  let closed = false;
  queue = new JudgeQueue({
    manifest,
    capacity: o.queue ?? 10_000,
    diagnoseEveryMs: 5000,
    ...(o.records ? { records: { dir: o.records.dir, perKind: o.records.perKind ?? 10 } } : {}),
    onJudged: (m) => {
      const entry = tally.judged(m, performance.now() - m.at);
      if (!entry || !o.onDisagreement) return;
      const d: Disagreement = { kind: entry.id, status: m.status, requirements: entry.requirements, known: entry.known };
      if (m.message !== undefined) d.message = m.message;
      if (m.scrubbed !== undefined) d.request = m.scrubbed;
      if (m.kept) d.kept = m.kept;
      try {
        o.onDisagreement(d);
      } catch (e) {
        complain(`onDisagreement threw: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    onCauses: (c) => tally.setCauses(c),
    onJudgeError: (message) => {
      tally.judgeError();
      complain(message);
    },
  });
  const q = queue;
  let seq = 0;

  /** The request as it was given, before assemble could change it; undefined when it cannot be copied (not data). */
  const snapshot = (request: unknown): { request: unknown } | undefined => {
    try {
      return { request: structuredClone(request) };
    } catch (e) {
      tally.judgeError();
      complain(`a sampled request cannot be copied for the judge: ${(e as Error).message}`);
      return undefined;
    }
  };
  const hand = (taken: { request: unknown }, outcome: Outcome): void => {
    try {
      if (!q.offer({ kind: 'outcome', seq: ++seq, at: performance.now(), request: taken.request, outcome })) tally.drop();
    } catch (e) {
      tally.judgeError();
      complain(`a sampled answer cannot be copied for the judge: ${(e as Error).message}`);
    }
  };

  const observed = function (this: unknown, request: never): unknown {
    let taken: { request: unknown } | undefined;
    try {
      tally.request();
      if (!closed && take()) {
        tally.sample();
        if (q.hasRoom) taken = snapshot(request);
        else tally.drop();
      }
    } catch (e) {
      complain(`sampling failed: ${(e as Error).message}`);
    }
    if (!taken) return assemble.call(this, request);
    let answer: unknown;
    try {
      answer = assemble.call(this, request);
    } catch (e) {
      hand(taken, thrownOutcome(e));
      throw e;
    }
    if (!isThenable(answer)) {
      hand(taken, returnedOutcome(answer));
      return answer;
    }
    const t = taken;
    return Promise.resolve(answer).then(
      (value) => {
        hand(t, returnedOutcome(value));
        return value;
      },
      (e: unknown) => {
        hand(t, thrownOutcome(e));
        throw e;
      },
    );
  } as unknown as Observed<F>;

  const observer: Observer = {
    stats: () => ({ calls: tally.requests, sampled: tally.sampled, dropped: tally.dropped, judgeErrors: tally.judgeErrors, judged: { ...tally.counts } }),
    metrics: () => tally.metrics.registry.metrics(),
    drain: (ms = 2000) => q.drain(ms),
    report: () => tally.report({ label: `observed ${assemble.name || 'assemble'}`, adapter: 'in-process' }),
    close: async () => {
      closed = true;
      await q.close();
    },
  };
  Object.defineProperty(observed, 'observer', { value: observer });
  Object.defineProperty(observed, 'name', { value: assemble.name });
  Object.defineProperty(observed, 'length', { value: assemble.length });
  return observed;
}
