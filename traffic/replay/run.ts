/**
 * Replaying recorded requests against one implementation, into a Report.
 * Files stream through a window of `concurrency` requests in flight, so
 * memory does not grow with the number of requests: passing requests are
 * counted, and only a bounded number of results is kept for the report
 * (every result while there are at most `maxListed`; past that, failures
 * only, and the details of the first ones).
 */
import { FAILING, summarize } from '../../protocol/types.js';
import type { AdapterName, CaseResult, Implementation, Manifest, ReplayInfo, Report, Status, Summary } from '../../protocol/types.js';
import { judgeRecorded, RecordedJudge } from './judge.js';
import { caseName, shrinkAndSave } from './counterexample.js';
import { readRecorded } from './read.js';
import type { ReplaySource } from './read.js';

export type { ReplaySource } from './read.js';
import { reportOf } from '../../running/envelope.js';
import { untilStopped } from '../../vocabulary/stopping.js';
import { defectFrom } from '../../vocabulary/defect.js';
import { recordLevel } from '../../vocabulary/levels.js';
import type { ObservationLog } from '../../diagnosis/log.js';
import { recordedObservation } from '../../diagnosis/recorded.js';

/** One recorded file, or one request of it (`FILE:LINE`). */

export interface ReplayProgress {
  /** Results so far (requests judged and unreadable lines), as the summary counts them. */
  records: number;
  failing: number;
  /** The file is read to its end and every result of it is in: its share is 100%. */
  fileDone: boolean;
  file: string;
  /** Raw bytes read of this file, and its size when known. */
  bytes: number;
  /** Blank lines read of this file: no result, but progress while a file holds nothing else. */
  blank: number;
  size?: number;
  elapsedMs: number;
}

export interface ReplayOptions {
  sources: ReplaySource[];
  impl: Implementation;
  manifest: Manifest;
  timeoutMs: number;
  concurrency: number;
  /** Send each request twice and compare the bytes (determinism, REQ-2). */
  twice: boolean;
  /** Shrink at most this many failing requests. */
  shrink: number;
  saveCounterexamples?: string;
  /** Results listed in the report: all of them up to this many, then failures only, up to this many. */
  maxListed: number;
  onProgress?: (p: ReplayProgress) => void;
  onUnreadable?: (where: string, why: string) => void;
  /**
   * `--shard I/N`: the records at positions I-1, I-1+N, ... counted from 0
   * over every source in order (unreadable lines are records too), so the N
   * shards of one command line split the recording without overlap, whatever
   * its files.
   */
  shard?: { index: number; total: number };
  /** Aborted (SIGINT, SIGTERM): no record is read after it, and a request not judged before it is left out. */
  signal?: AbortSignal;
  /** The command that replays one request again. */
  rerun?: (source: ReplaySource, line: number) => string;
  adapter?: AdapterName;
  target?: string;
  /** Where the replay keeps what its diagnosis reads (bounded by the log: a replay streams). */
  observations?: ObservationLog;
}

/** Failing results past this many keep their message but not the request, expected and actual (the file holds the request). */
export const DETAILED_RESULTS = 100;

interface Kept {
  order: [number, number];
  result: CaseResult;
}

const before = (a: Kept, b: Kept): boolean => a.order[0] < b.order[0] || (a.order[0] === b.order[0] && a.order[1] < b.order[1]);

/**
 * The bounded list of results a report lists: every result while there are at
 * most `max`, then the first `max` failing ones in file order (results finish
 * out of order by at most the concurrency, so a late one can still displace).
 */
class Listing {
  private kept: Kept[] = [];
  private failing = 0;
  /** Past max results: passes and skips are counted only. */
  private full = false;
  unlisted = 0;
  constructor(private readonly max: number) {}

  /** Whether a result of this status would be listed now: past max results, a pass or a skip is only counted (by passOver). */
  lists(status: Status): boolean {
    return !this.full || FAILING.has(status);
  }

  /** Count a result that lists() said is not listed, without building it. */
  passOver(): void {
    this.unlisted++;
  }

  add(k: Kept): void {
    if (FAILING.has(k.result.status)) {
      if (this.failing >= this.max) {
        const last = this.lastFailing();
        if (!before(k, last)) {
          this.unlisted++;
          return;
        }
        this.kept.splice(this.kept.indexOf(last), 1);
        this.failing--;
        this.unlisted++;
      }
      this.failing++;
      this.kept.push(k);
    } else if (this.full) {
      this.passOver();
      return;
    } else this.kept.push(k);
    if (!this.full && this.kept.length > this.max) {
      this.full = true;
      const all = this.kept.length;
      this.kept = this.kept.filter((x) => FAILING.has(x.result.status));
      this.unlisted += all - this.kept.length;
    }
  }

  private lastFailing(): Kept {
    let last: Kept | undefined;
    for (const k of this.kept) if (FAILING.has(k.result.status) && (!last || before(last, k))) last = k;
    return last!;
  }

  results(): CaseResult[] {
    return this.kept.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]).map((k) => k.result);
  }
}

export async function replay(o: ReplayOptions): Promise<Report> {
  const started = new Date();
  const t0 = performance.now();
  const counts: Summary = summarize([]);
  const listing = new Listing(o.maxListed);
  const files: ReplayInfo['files'] = [];
  let records = 0;
  let failing = 0;
  let detailed = 0;
  let shrunk = 0;

  const count = (s: Status): void => {
    counts.total++;
    counts[s]++;
    if (FAILING.has(s)) failing++;
  };

  const stopped = (): boolean => o.signal?.aborted === true;
  let position = 0;
  const inShard = o.shard ? (): boolean => position++ % o.shard!.total === o.shard!.index - 1 : undefined;
  for (const [fi, source] of o.sources.entries()) {
    if (stopped()) break;
    const file = { file: source.label, requests: 0, unreadable: 0 };
    files.push(file);
    let bytes = 0;
    let blank = 0;
    let fileDone = false;
    const progress = (): void =>
      o.onProgress?.({
        records,
        failing,
        fileDone,
        file: source.label,
        bytes,
        blank,
        ...(source.size !== undefined ? { size: source.size } : {}),
        elapsedMs: performance.now() - t0,
      });
    // FILE:LINE: only that line is a record of this source, for the shard as for the rest; the
    // lines before it are not even parsed, and the first one after it is, to end the reading there.
    const take =
      inShard || source.line !== undefined
        ? (line: number): boolean => (source.line === undefined || line === source.line ? !inShard || inShard() : line > source.line)
        : undefined;
    const reader = readRecorded(source.path, {
      onBytes: (n) => (bytes = n),
      onBlank: (n) => {
        blank = n;
        progress();
      },
      ...(take ? { take } : {}),
    });

    const judging = { timeoutMs: o.timeoutMs, twice: o.twice };
    const judge = new RecordedJudge(o.manifest);
    const one = async (line: number, request: unknown): Promise<void> => {
      const judged = await judgeRecorded(o.impl, judge, request, judging);
      // An answer after the signal is not kept (the stdio adapter kills its processes on it): the request was not judged.
      if (stopped()) return;
      const v = judged.verdict;
      file.requests++;
      records++;
      count(v.status);
      if (!o.observations && !listing.lists(v.status)) {
        // A pass or skip past the listed results: counted, and nothing more is made of it.
        listing.passOver();
        return;
      }
      const id = `replay/${source.label}:${line}`;
      if (o.observations && v.status !== 'skip')
        o.observations.add(recordedObservation(id, request, o.manifest, judged.outcome, v.status === 'pass'), [fi, line]);
      const result: CaseResult = {
        id,
        kind: 'replay',
        level: recordLevel(o.manifest),
        status: v.status,
        requirements: v.requirements,
        duration_ms: Math.round(judged.ms * 1000) / 1000,
      };
      if (v.status !== 'pass') result.message = v.message || v.status;
      if (FAILING.has(v.status)) {
        // Kept whatever the details dropped: a baseline entry is matched by it (the shrunk request's, once shrunk).
        result.defect = defectFrom(v);
        if (o.rerun) result.rerun = o.rerun(source, line);
        if (detailed < DETAILED_RESULTS) {
          detailed++;
          if (v.expected !== undefined) result.expected = v.expected;
          if (v.actual !== undefined) result.actual = v.actual;
          result.request = request;
          if (judged.stderr) result.stderr = judged.stderr;
          if (judged.stderr && judged.stderrInFlight) result.stderr_in_flight = judged.stderrInFlight;
        }
      }
      // Counted and listed at once, before shrinking: an interrupted shrink leaves the result as it was judged.
      listing.add({ order: [fi, line], result });
      if (FAILING.has(v.status)) {
        if ((v.status === 'fail' || v.status === 'error') && shrunk < o.shrink && !stopped()) {
          shrunk++;
          const s = await shrinkAndSave({
            impl: o.impl,
            manifest: o.manifest,
            timeoutMs: o.timeoutMs,
            twice: o.twice,
            request,
            status: v.status,
            requirements: v.requirements,
            found: `replaying ${source.label} line ${line}`,
            name: caseName('replay', source.label, line),
            tag: 'replay',
            ...(o.saveCounterexamples !== undefined ? { dir: o.saveCounterexamples } : {}),
            ...(o.signal ? { signal: o.signal } : {}),
          });
          result.counterexample = s.request;
          result.message += `\n${s.note}`;
          if (s.verdict) result.defect = defectFrom(s.verdict);
        }
      }
    };

    const worker = async (): Promise<void> => {
      while (!stopped()) {
        const next = await reader.next();
        if (next.done || stopped()) return;
        const rec = next.value;
        if (source.line !== undefined && rec.line !== source.line) {
          if (rec.line > source.line) return;
          continue;
        }
        if ('unreadable' in rec) {
          records++;
          file.unreadable++;
          count('skip');
          o.onUnreadable?.(`${source.label}:${rec.line}`, rec.unreadable);
          listing.add({
            order: [fi, rec.line],
            result: {
              id: `replay/${source.label}:${rec.line}`,
              kind: 'replay',
              level: recordLevel(o.manifest),
              status: 'skip',
              requirements: [],
              duration_ms: 0,
              message: `unreadable line: ${rec.unreadable}`,
            },
          });
        } else {
          await one(rec.line, rec.request);
        }
        progress();
      }
    };
    const workers = Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker));
    try {
      await untilStopped(workers, o.signal);
    } finally {
      // Stop reading (and close the file) when a FILE:LINE was found before the end, or on a signal.
      if (!stopped()) await reader.return(undefined);
      else
        void workers.then(
          () => reader.return(undefined),
          () => undefined,
        );
    }
    fileDone = !stopped();
    progress();
  }

  const duration = performance.now() - t0;
  const cases = listing.results();
  const replayInfo: ReplayInfo = {
    files,
    requests: records,
    unreadable: files.reduce((n, f) => n + f.unreadable, 0),
    rate_per_s: duration > 0 ? Math.round((records / duration) * 1000 * 10) / 10 : 0,
    sent_twice: o.twice,
    listed: cases.length,
    unlisted: listing.unlisted,
    shrunk,
  };
  return reportOf({
    manifest: o.manifest,
    ...(o.adapter ? { adapter: o.adapter } : {}),
    ...(o.target ? { target: o.target } : {}),
    ...(o.shard ? { run: { shard: `${o.shard.index}/${o.shard.total}` } } : {}),
    started,
    durationMs: duration,
    summary: counts,
    cases,
    extra: { replay: replayInfo },
  });
}
