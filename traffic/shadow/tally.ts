/**
 * What a shadow (or an observer) has seen, in bounded memory whatever the
 * traffic: counts by status, one entry per kind of disagreement (at most
 * MAX_KINDS; past that they are counted only), the last disagreements shown
 * with a message, and the latest likely causes. It feeds the metrics as the
 * verdicts come, and makes the replay-shaped report at the end: one result
 * per kind of disagreement, the passes and skips counted in the summary.
 *
 * The baseline applies as it does at the end of a replay (applyBaseline):
 * a kind it knows is counted with `known="true"`, not alarmed.
 */
import { applyBaseline } from '../../judging/baseline.js';
import { reportOf } from '../../running/envelope.js';
import { summarize } from '../../protocol/types.js';
import type { AdapterName, Defect, DiagnosisEntry, Manifest, RecordResult, Report, Status, Summary } from '../../protocol/types.js';
import { recordLevel } from '../../vocabulary/levels.js';
import type { JudgedMessage } from './judge-queue.js';
import { MAX_KINDS } from './judging.js';
import { ShadowMetrics } from './metrics.js';
import type { Kept } from './records.js';

/** Disagreements the status page lists, the latest first. */
export const RECENT = 20;
/** A message as the status page and the report show it, at most. */
const MAX_MESSAGE = 4000;

export interface KindEntry {
  id: string;
  status: Status;
  requirements: string[];
  defect: Defect;
  count: number;
  known: boolean;
  firstAt: string;
  lastAt: string;
  message?: string;
  scrubbed?: unknown;
  kept?: Kept;
}

export interface RecentDisagreement {
  at: string;
  kind: string;
  status: Status;
  requirements: string[];
  message: string;
  kept?: Kept;
}

export interface TallyOptions {
  manifest: Manifest;
  baseline?: string;
  queueDepth: () => number;
  /** Bytes of the samples waiting for the judge or being judged. */
  queueBytes?: () => number;
}

const cut = (s: string): string => (s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)} …` : s);

export class ShadowTally {
  readonly metrics: ShadowMetrics;
  readonly counts: Summary = summarize([]);
  readonly kinds = new Map<string, KindEntry>();
  readonly recent: RecentDisagreement[] = [];
  causes: DiagnosisEntry[] = [];
  requests = 0;
  sampled = 0;
  dropped = 0;
  oversize = 0;
  upstreamFailures = 0;
  judgeErrors = 0;
  /** Failing verdicts of kinds past MAX_KINDS. */
  unlisted = 0;
  readonly started = new Date();
  private readonly t0 = performance.now();

  constructor(private readonly o: TallyOptions) {
    this.metrics = new ShadowMetrics(o.queueDepth, o.queueBytes);
  }

  request(): void {
    this.requests++;
    this.metrics.requests.inc();
  }

  sample(): void {
    this.sampled++;
    this.metrics.sampled.inc();
  }

  drop(): void {
    this.dropped++;
    this.metrics.dropped.inc();
  }

  tooLarge(): void {
    this.oversize++;
    this.metrics.oversize.inc();
  }

  upstreamFailed(kind: Parameters<ShadowMetrics['upstreamFailed']>[0]): void {
    this.upstreamFailures++;
    this.metrics.upstreamFailed(kind);
  }

  judgeError(): void {
    this.judgeErrors++;
    this.metrics.judgeErrors.inc();
  }

  setCauses(causes: DiagnosisEntry[]): void {
    this.causes = causes;
    this.metrics.likelyCause.reset();
    for (const c of causes) this.metrics.likelyCause.set({ cause: c.id }, c.explains);
  }

  /** One verdict from the judge; `lagMs` from the end of the answer to now. Returns the kind entry of a disagreement. */
  judged(m: JudgedMessage, lagMs: number): KindEntry | undefined {
    this.counts.total++;
    this.counts[m.status]++;
    const mt = this.metrics;
    mt.judged.inc({ status: m.status });
    mt.judgeLag.observe(lagMs / 1000);
    if (m.figures.tokens !== undefined) mt.tokens.observe(m.figures.tokens);
    if (m.figures.omitted !== undefined) mt.omitted.observe(m.figures.omitted);
    if (m.figures.pinnedOverflow) mt.pinnedOverflow.inc();
    if (m.kind_id === undefined || m.defect === undefined) return undefined;
    if (m.kept) mt.recordsKept.inc();
    const now = new Date().toISOString();
    let entry = this.kinds.get(m.kind_id);
    if (!entry) {
      if (this.kinds.size >= MAX_KINDS) {
        this.unlisted++;
        for (const r of m.requirements.length > 0 ? m.requirements : ['unattributed']) mt.disagreements.inc({ requirement: r, known: 'false' });
        return undefined;
      }
      entry = {
        id: m.kind_id,
        status: m.status,
        requirements: [...m.requirements].sort(),
        defect: m.defect,
        count: 0,
        known: false,
        firstAt: now,
        lastAt: now,
      };
      entry.known = this.knownByBaseline(entry);
      this.kinds.set(entry.id, entry);
    }
    entry.count++;
    entry.lastAt = now;
    if (m.message !== undefined && entry.message === undefined) {
      entry.message = cut(m.message);
      entry.scrubbed = m.scrubbed;
    }
    if (m.kept && !entry.kept) entry.kept = m.kept;
    for (const r of entry.requirements.length > 0 ? entry.requirements : ['unattributed']) mt.disagreements.inc({ requirement: r, known: String(entry.known) });
    if (m.message !== undefined) {
      this.recent.unshift({
        at: now,
        kind: entry.id,
        status: m.status,
        requirements: entry.requirements,
        message: cut(m.message),
        ...(m.kept ? { kept: m.kept } : {}),
      });
      if (this.recent.length > RECENT) this.recent.pop();
    }
    return entry;
  }

  /** The result a kind stands for in the report. */
  private resultOf(k: KindEntry, rerun?: (kept: Kept) => string): RecordResult {
    const judged = this.counts.total;
    const where = k.kept ? `; kept as ${k.kept.file}:${k.kept.line}` : '';
    const result: RecordResult = {
      id: k.id,
      kind: 'replay',
      level: recordLevel(this.o.manifest),
      status: k.status,
      requirements: k.requirements,
      duration_ms: 0,
      message: `${k.count} of ${judged} judged request${judged === 1 ? '' : 's'} (first ${k.firstAt}, last ${k.lastAt})${where}\n${k.message ?? k.status}`,
      defect: k.defect,
    };
    if (k.scrubbed !== undefined) result.request = k.scrubbed;
    if (k.kept && rerun) result.rerun = rerun(k.kept);
    return result;
  }

  /** Whether the baseline expects this kind: applyBaseline, the one judge of it, asked once per kind. */
  private knownByBaseline(k: KindEntry): boolean {
    if (this.o.baseline === undefined) return false;
    const probe = this.report({ label: 'probe' }, [k]);
    return applyBaseline(probe, this.o.baseline).unexpected.length === 0;
  }

  /** The replay-shaped report of what was judged: one result per kind of disagreement. */
  report(o: { label: string; rerun?: (kept: Kept) => string; adapter?: AdapterName; target?: string }, only?: KindEntry[]): Report {
    const kinds = only ?? [...this.kinds.values()];
    const cases = kinds.map((k) => this.resultOf(k, o.rerun));
    const durationMs = performance.now() - this.t0;
    const judged = this.counts.total;
    return reportOf({
      manifest: this.o.manifest,
      ...(o.adapter ? { adapter: o.adapter } : {}),
      ...(o.target ? { target: o.target } : {}),
      started: this.started,
      durationMs,
      summary: { ...this.counts },
      cases,
      extra: {
        replay: {
          files: [{ file: o.label, requests: judged, unreadable: 0 }],
          requests: judged,
          unreadable: 0,
          rate_per_s: durationMs > 0 ? Math.round((judged / durationMs) * 1000 * 10) / 10 : 0,
          sent_twice: false,
          listed: cases.length,
          unlisted: judged - kinds.reduce((n, k) => n + k.count, 0),
          shrunk: 0,
        },
      },
    });
  }
}
