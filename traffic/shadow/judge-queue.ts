/**
 * The traffic's side of the judge: samples go to a worker thread
 * (judge-worker.ts), their buffers moved there, never copied, and are never
 * waited for. At most `capacity` samples and `capacityBytes` bytes are on
 * their way or being judged; a sample offered past either is dropped (and the
 * caller counts it), so the traffic never slows for the judge. A judge that
 * dies takes no request with it: the samples after it are dropped.
 */
import { Worker } from 'node:worker_threads';
import { packagePath } from '../../protocol/package-root.js';
import type { DiagnosisEntry } from '../../protocol/types.js';
import type { FromJudge, JudgeMessage, JudgeSetup } from './judge-protocol.js';
import type { Sample } from './judging.js';

export type JudgedMessage = Extract<JudgeMessage, { kind: 'judged' }>;

/** Samples gathered before they go over at most, and how long the first waits for others (ms). */
const BATCH_SIZE = 64;
const BATCH_MS = 10;

export interface JudgeQueueOptions extends JudgeSetup {
  capacity: number;
  /** Bytes of the samples on their way or being judged, at most (a request and its answer); undefined: not bounded in bytes. */
  capacityBytes?: number;
  onJudged(m: JudgedMessage): void;
  onCauses?(causes: DiagnosisEntry[]): void;
  /** A sample the judge threw on, or the judge's thread gone: the kit's fault, said once per message. */
  onJudgeError?(message: string): void;
}

export class JudgeQueue {
  private readonly worker: Worker;
  private pending = 0;
  private pendingBytes = 0;
  /** The bytes of each sample not yet judged, by its seq. */
  private readonly sizes = new Map<number, number>();
  private dead = false;
  private finished: (() => void) | undefined;
  /** Samples offered and not yet sent over, with the buffers they move. */
  private batch: Sample[] = [];
  private moving: ArrayBuffer[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: JudgeQueueOptions) {
    const setup: JudgeSetup = { manifest: o.manifest, diagnoseEveryMs: o.diagnoseEveryMs, ...(o.records ? { records: o.records } : {}) };
    // The compiled worker, also when this file runs as TypeScript source (the tests): no loader to start.
    this.worker = new Worker(packagePath('dist', 'traffic', 'shadow', 'judge-worker.js'), { workerData: setup });
    this.worker.unref();
    this.worker.on('message', (m: FromJudge) => this.received(m));
    this.worker.on('error', (e) => this.gone(`the judge's thread failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
    this.worker.on('exit', (code) => this.gone(`the judge's thread ended (exit code ${code})`));
  }

  /** Samples on their way to the judge or being judged. */
  get depth(): number {
    return this.pending;
  }

  /** Whether a sample offered now would be taken. */
  get hasRoom(): boolean {
    return !this.dead && this.pending < this.o.capacity;
  }

  /** Bytes of the samples on their way to the judge or being judged. */
  get depthBytes(): number {
    return this.pendingBytes;
  }

  /**
   * Hand a sample over; false when it was dropped (the queue full in number or in bytes, or the
   * judge gone). `transfer` moves the sample's buffers to the judge's thread instead of copying them:
   * the caller does not read them again.
   */
  offer(s: Sample, transfer?: ArrayBuffer[]): boolean {
    if (!this.hasRoom) return false;
    const bytes = s.kind === 'bytes' ? s.request.byteLength + s.answer.byteLength : 0;
    if (this.o.capacityBytes !== undefined && this.pendingBytes + bytes > this.o.capacityBytes) return false;
    this.pending++;
    this.pendingBytes += bytes;
    this.sizes.set(s.seq, bytes);
    if (s.kind === 'outcome') {
      // An in-process observer's values go over at once: one that cannot be copied throws here, to the offer's caller.
      try {
        this.worker.postMessage({ kind: 'batch', samples: [s] });
      } catch (e) {
        this.pending--;
        this.sizes.delete(s.seq);
        throw e;
      }
      return true;
    }
    this.batch.push(s);
    if (transfer) this.moving.push(...transfer);
    if (this.batch.length >= BATCH_SIZE) this.flush();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), BATCH_MS);
      this.timer.unref();
    }
    return true;
  }

  /** Send the gathered samples over in one message: one wake of the judge's thread for many samples. */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.batch.length === 0 || this.dead) return;
    const samples = this.batch;
    const moving = this.moving;
    this.batch = [];
    this.moving = [];
    this.worker.postMessage({ kind: 'batch', samples }, moving);
  }

  /**
   * Wait until every sample handed over is judged and the last likely cause
   * is in, or `ms` pass: whether it drained.
   */
  async drain(ms: number): Promise<boolean> {
    if (this.dead) return this.pending === 0;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const done = new Promise<true>((resolve) => {
      this.finished = () => resolve(true);
      this.flush();
      this.worker.postMessage({ kind: 'finish' });
    });
    try {
      return await Promise.race([done, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.dead = true;
    await this.worker.terminate();
  }

  private received(m: FromJudge): void {
    if (m.kind === 'batch') {
      for (const one of m.messages) this.received(one);
      return;
    }
    if (m.kind === 'judge-error' && m.seq < 0) {
      // The likely cause's diagnosis failed, no sample's judging: nothing pending is answered by it.
      this.o.onJudgeError?.(`working out the likely cause failed: ${m.message}`);
      return;
    }
    if (m.kind === 'judged' || m.kind === 'judge-error') {
      this.pending--;
      this.pendingBytes -= this.sizes.get(m.seq) ?? 0;
      this.sizes.delete(m.seq);
      if (m.kind === 'judged') this.o.onJudged(m);
      else this.o.onJudgeError?.(`judging sample ${m.seq} failed: ${m.message}`);
    } else if (m.kind === 'causes') this.o.onCauses?.(m.causes);
    else if (m.kind === 'finished') this.finished?.();
  }

  private gone(why: string): void {
    if (this.dead) return;
    this.dead = true;
    this.o.onJudgeError?.(why);
    this.finished?.();
  }
}
