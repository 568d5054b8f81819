/**
 * What the shadow exports in the Prometheus text format (prom-client, on a
 * registry of its own so nothing else in the process leaks into it), named by
 * Prometheus' rules: one `ctxconform_shadow_` prefix, counters ending in
 * `_total`, seconds and bytes as the units. The context-assembly chapter's
 * three figures keep the chapter's words under that prefix
 * (`context_tokens_est` is `ctxconform_shadow_context_tokens_estimated`,
 * `sections_omitted` is `ctxconform_shadow_sections_omitted`,
 * `pinned_overflow_errors` is `ctxconform_shadow_pinned_overflow_errors_total`)
 * and are read from the upstream's answers the judge saw, the sampled ones
 * (every answer at `--sample 1`).
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { UpstreamFailure } from './proxy.js';

export class ShadowMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<never>;
  readonly sampled: Counter<never>;
  readonly dropped: Counter<never>;
  readonly oversize: Counter<never>;
  readonly upstreamFailures: Counter<'kind'>;
  readonly judged: Counter<'status'>;
  readonly disagreements: Counter<'requirement' | 'known'>;
  readonly likelyCause: Gauge<'cause'>;
  readonly judgeLag: Histogram<never>;
  readonly judgeErrors: Counter<never>;
  readonly recordsKept: Counter<never>;
  readonly tokens: Histogram<never>;
  readonly omitted: Histogram<never>;
  readonly pinnedOverflow: Counter<never>;

  constructor(queueDepth: () => number, queueBytes: () => number = () => 0) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'ctxconform_shadow_requests_total', help: 'Requests passed through to the upstream.', registers });
    this.sampled = new Counter({ name: 'ctxconform_shadow_sampled_total', help: 'POST /assemble exchanges sampled for judging.', registers });
    this.dropped = new Counter({
      name: 'ctxconform_shadow_dropped_samples_total',
      help: 'Samples dropped because the judge queue was full (the traffic was not slowed).',
      registers,
    });
    this.oversize = new Counter({
      name: 'ctxconform_shadow_oversize_total',
      help: 'Sampled exchanges whose request or answer was over the body limit: passed through, not judged.',
      registers,
    });
    this.upstreamFailures = new Counter({
      name: 'ctxconform_shadow_upstream_failures_total',
      help: 'Exchanges the upstream gave no answer to that could be passed on whole, by kind (refused, timeout, reset, malformed, other).',
      labelNames: ['kind'],
      registers,
    });
    this.judged = new Counter({ name: 'ctxconform_shadow_judged_total', help: 'Samples judged, by verdict status.', labelNames: ['status'], registers });
    this.disagreements = new Counter({
      name: 'ctxconform_shadow_disagreements_total',
      help: 'Judged answers that disagree with the specification, by requirement id (a request counts once for each id), and whether the baseline knows the failure.',
      labelNames: ['requirement', 'known'],
      registers,
    });
    this.likelyCause = new Gauge({
      name: 'ctxconform_shadow_likely_cause',
      help: 'Disagreements the likely cause explains, in the latest diagnosis of the kept observations (docs/diagnosis.md).',
      labelNames: ['cause'],
      registers,
    });
    this.judgeLag = new Histogram({
      name: 'ctxconform_shadow_judge_lag_seconds',
      help: 'From the end of an answer to its verdict.',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    new Gauge({
      name: 'ctxconform_shadow_judge_queue_depth',
      help: 'Samples on their way to the judge or being judged.',
      registers,
      collect() {
        this.set(queueDepth());
      },
    });
    new Gauge({
      name: 'ctxconform_shadow_judge_queue_bytes',
      help: 'Bytes of the samples (requests and answers) waiting for the judge or being judged.',
      registers,
      collect() {
        this.set(queueBytes());
      },
    });
    this.judgeErrors = new Counter({ name: 'ctxconform_shadow_judge_errors_total', help: "Samples the kit's judge failed on (the kit's fault).", registers });
    this.recordsKept = new Counter({
      name: 'ctxconform_shadow_records_kept_total',
      help: 'Disagreeing requests written, scrubbed, as replayable records.',
      registers,
    });
    this.tokens = new Histogram({
      name: 'ctxconform_shadow_context_tokens_estimated',
      help: "estimated_tokens of the upstream's results (sampled answers).",
      buckets: [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072],
      registers,
    });
    this.omitted = new Histogram({
      name: 'ctxconform_shadow_sections_omitted',
      help: "Omissions in the upstream's results (sampled answers).",
      buckets: [0, 1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers,
    });
    this.pinnedOverflow = new Counter({
      name: 'ctxconform_shadow_pinned_overflow_errors_total',
      help: 'pinned_overflow error answers of the upstream (sampled answers).',
      registers,
    });
  }

  upstreamFailed(kind: UpstreamFailure): void {
    this.upstreamFailures.inc({ kind });
  }
}
