/**
 * The runner: golden cases (and properties) against one implementation, into
 * a Report. A misbehaving implementation never ends the run: every adapter
 * failure is an Outcome, and anything that still throws becomes that case's
 * `error`.
 */
import { judge, skipReason } from '../judge/judge.js';
import { holdsIn } from '../spec.js';
import { byId, summarize } from '../../protocol/types.js';
import type { AdapterName, CaseResult, Implementation, Manifest, Report } from '../../protocol/types.js';
import type { GoldenCase, Verdict } from '../types.js';
import { reportOf } from './envelope.js';
import { idMatcher, inShard } from './filter.js';
import { combineCaseRuns, combinePropertyRounds, withFlakyRequirement } from './repeat.js';
import type { CaseRun, CombinedRun } from './repeat.js';
import type { ObservationLog } from '../diagnose/log.js';

export interface RunOptions {
  cases: GoldenCase[];
  impl: Implementation;
  manifest: Manifest;
  timeoutMs: number;
  concurrency: number;
  /** Runs per property; 0 runs none. */
  properties: number;
  seed: number;
  saveCounterexamples?: string;
  filter?: string;
  /** 1-based: shard 1/3 is the first of three. Properties run in shard 1 only. */
  shard?: { index: number; total: number };
  /** Only the cases that hold in this spec version (`since` <= it); recorded in report.run. */
  spec?: string;
  /** Send every case this many times and run every property this many times from its seed (default 1). */
  repeat?: number;
  onProgress?: (done: number, total: number, current: string) => void;
  /** The command that reruns one case; defaults to the reference run. */
  rerun?: (id: string) => string;
  /** Recorded in report.run. */
  adapter?: AdapterName;
  target?: string;
  /** Where the run keeps what its diagnosis reads of each judged result (observe.ts); none, no diagnosis. */
  observations?: ObservationLog;
}

function defaultRerun(id: string): string {
  return `npx ctxconform run --filter '${id}'`;
}

export async function runCase(c: GoldenCase, impl: Implementation, manifest: Manifest, timeoutMs: number): Promise<CaseRun> {
  const why = skipReason(c, manifest);
  if (why !== undefined) return { verdict: { status: 'skip', message: why }, ms: 0 };
  const t0 = performance.now();
  try {
    const outcome = await impl.assemble(c.request, { timeoutMs });
    const ms = performance.now() - t0;
    const verdict = judge(c, outcome, manifest);
    // Only a case that did not pass reports stderr, so only it waits for all of it.
    const stderr = verdict.status === 'pass' || verdict.status === 'skip' ? undefined : impl.stderrFor ? await impl.stderrFor(outcome) : outcome.stderr;
    return { verdict, ms, outcome, ...(stderr ? { stderr } : {}) };
  } catch (e) {
    return { verdict: { status: 'error', message: `the adapter failed: ${e instanceof Error ? e.message : String(e)}` }, ms: performance.now() - t0 };
  }
}

/** One case's verdict as a report entry, with what it takes to act on a failure. */
export function toResult(c: GoldenCase, r: { verdict: Verdict; stderr?: string; ms: number } & Pick<CombinedRun, 'answers'>, rerun: (id: string) => string): CaseResult {
  const v = r.verdict;
  const out: CaseResult = {
    id: c.id,
    kind: 'case',
    status: v.status,
    requirements: v.status === 'flaky' ? withFlakyRequirement(c.requirements) : c.requirements,
    description: c.description,
    tags: c.tags,
    ...(c.since !== undefined ? { since: c.since } : {}),
    ...(v.derived !== undefined && v.status !== 'skip' ? { declared_constants: v.derived } : {}),
    duration_ms: Math.round(r.ms * 1000) / 1000,
  };
  if (v.status === 'pass') return out;
  out.message = v.message || v.status;
  if (v.status === 'skip') return out;
  // What it takes to act on a failure: the diff, the request, the implementation's logs, the command.
  if (v.expected !== undefined) out.expected = v.expected;
  if (v.actual !== undefined) out.actual = v.actual;
  if (r.answers) out.answers = r.answers;
  out.request = c.request;
  out.rerun = rerun(c.id);
  if (r.stderr) out.stderr = r.stderr;
  return out;
}

export async function runSuite(o: RunOptions): Promise<Report> {
  const started = new Date();
  const t0 = performance.now();
  const rerun = o.rerun ?? defaultRerun;
  const matches = idMatcher(o.filter);
  const spec = o.spec;
  const cases = inShard(o.cases.filter((c) => matches(c) && (spec === undefined || holdsIn(c.since, spec))).sort(byId), o.shard);
  const withProperties = o.properties > 0 && (!o.shard || o.shard.index === 1);
  const repeat = Math.max(1, o.repeat ?? 1);
  // Round r sends every case once; a case's repeats are apart by a whole round.
  const sends = cases.length * repeat;
  const total = sends + (withProperties ? 1 : 0);

  const runs: CaseRun[][] = cases.map(() => []);
  let done = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < sends) {
      const k = next++;
      const i = k % cases.length;
      const round = Math.floor(k / cases.length);
      const c = cases[i]!;
      o.onProgress?.(done, total, repeat > 1 ? `${c.id} (${round + 1}/${repeat})` : c.id);
      runs[i]![round] = await runCase(c, o.impl, o.manifest, o.timeoutMs);
      done++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, sends)) }, worker));
  const combined = runs.map((r) => combineCaseRuns(r));
  const results: CaseResult[] = cases.map((c, i) => toResult(c, combined[i]!, rerun));
  const observe = o.observations ? await import('./observe.js') : undefined;
  if (observe && o.observations) observe.observeCases(o.observations, cases, combined, o.manifest);

  let props: CaseResult[] = [];
  if (withProperties) {
    const { PROPERTIES, runProperties } = await import('../properties/index.js');
    const { genContext } = await import('../properties/arbitraries.js');
    const gen = genContext(o.manifest);
    const only = PROPERTIES.filter((p) => matches({ id: `property/${p.name}`, requirements: p.requirements(gen) })).map((p) => p.name);
    if (only.length > 0) {
      o.onProgress?.(done, total, `properties (${only.length} × ${o.properties} runs${repeat > 1 ? `, ${repeat} times` : ''})`);
      // Each repeat replays the same seed: a deterministic implementation gives the same results.
      const rounds: CaseResult[][] = [];
      for (let r = 0; r < repeat; r++) {
        rounds.push(
          await runProperties(o.impl, o.manifest, {
            runs: o.properties,
            seed: o.seed,
            timeoutMs: o.timeoutMs,
            concurrency: o.concurrency,
            only,
            ...(o.saveCounterexamples ? { saveCounterexamples: o.saveCounterexamples } : {}),
          }),
        );
      }
      props = combinePropertyRounds(rounds)
        .map((p: CaseResult) => (p.status !== 'pass' && p.status !== 'skip' && !p.rerun ? { ...p, rerun: rerun(p.id) } : p))
        .sort(byId);
      if (observe && o.observations) await observe.observeProperties(o.observations, props, o.impl, o.manifest, o.timeoutMs);
    }
    done++;
  }
  o.onProgress?.(done, total, '');

  const all = [...results, ...props];
  return reportOf({
    manifest: o.manifest,
    ...(o.adapter ? { adapter: o.adapter } : {}),
    ...(o.target ? { target: o.target } : {}),
    run: {
      seed: o.seed,
      properties_runs: props.length > 0 ? o.properties : 0,
      shard: o.shard ? `${o.shard.index}/${o.shard.total}` : null,
      filter: o.filter ?? null,
      ...(spec !== undefined ? { spec } : {}),
      ...(repeat > 1 ? { repeat } : {}),
    },
    started,
    durationMs: performance.now() - t0,
    summary: summarize(all),
    cases: all,
  });
}
