/**
 * The runner: golden cases (and properties) against one implementation, into
 * a Report. A misbehaving implementation never ends the run: every adapter
 * failure is an Outcome, and anything that still throws becomes that case's
 * `error`.
 */
import { judge, skipReason } from '../judging/judge.js';
import { holdsIn } from '../vocabulary/spec.js';
import { byId, requestStderrOf, summarize } from '../protocol/types.js';
import type { AdapterName, CaseResult, GoldenResult, Implementation, Manifest, PropertyResult, Report, RequestStderr } from '../protocol/types.js';
import type { GoldenCase, Verdict } from '../vocabulary/types.js';
import { reportOf } from './envelope.js';
import { idMatcher, inShard } from './filter.js';
import { combineCaseRuns, combinePropertyRounds, withFlakyRequirement } from './repeat.js';
import type { CaseRun, CombinedRun } from './repeat.js';
import { breather, untilStopped } from '../vocabulary/stopping.js';
import { defectFrom } from '../vocabulary/defect.js';
import { caseLevel } from '../vocabulary/levels.js';
import { anyOnly } from '../protocol/levels.js';
import type { ObservationLog } from '../diagnosis/log.js';
import { prepareDesign } from '../judging/principles/design.js';
import { caseAsSent } from './sent.js';
import type { Design } from '../judging/principles/design.js';

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
  /** Aborted (SIGINT, SIGTERM): no case is sent after it, and what had no answer before it is left out of the report. */
  signal?: AbortSignal;
  /** The command that reruns one failing case or property, as the caller spells it; none, no rerun member. */
  rerun?: (id: string) => string;
  /** Recorded in report.run. */
  adapter?: AdapterName;
  target?: string;
  /** Where the run keeps what its diagnosis reads of each judged result (observe.ts); none, no diagnosis. */
  observations?: ObservationLog;
}

/** The property names the filter takes, in catalogue order. */
async function selectedProperties(o: RunOptions, matches: ReturnType<typeof idMatcher>): Promise<string[]> {
  const { PROPERTIES, listedFor } = await import('../judging/properties/index.js');
  const { genContext } = await import('../judging/properties/arbitraries.js');
  const gen = genContext(o.manifest);
  return PROPERTIES.filter((p) => listedFor(p, gen) && matches({ id: `property/${p.name}`, requirements: p.requirements(gen) })).map((p) => p.name);
}

/** `design`: the manifest's declared design, prepared once for the run (the any level measures with it). */
export async function runCase(c: GoldenCase, impl: Implementation, manifest: Manifest, timeoutMs: number, design?: Design): Promise<CaseRun> {
  const why = skipReason(c, manifest);
  if (why !== undefined) return { verdict: { status: 'skip', message: why }, ms: 0 };
  const sent = caseAsSent(c, manifest);
  const t0 = performance.now();
  try {
    const outcome = await impl.assemble(sent.request, { timeoutMs });
    const ms = performance.now() - t0;
    const verdict = judge(sent, outcome, manifest, design);
    // Only a case that did not pass reports stderr, so only it waits for all of it.
    const stderr = verdict.status === 'pass' || verdict.status === 'skip' ? {} : impl.stderrFor ? await impl.stderrFor(outcome) : requestStderrOf(outcome);
    return { verdict, ms, outcome, ...requestStderrOf(stderr) };
  } catch (e) {
    return { verdict: { status: 'error', message: `the adapter failed: ${e instanceof Error ? e.message : String(e)}` }, ms: performance.now() - t0 };
  }
}

/** One case's verdict as a report entry, with what it takes to act on a failure. */
export function toResult(
  c: GoldenCase,
  r: { verdict: Verdict; ms: number } & RequestStderr & Pick<CombinedRun, 'answers'>,
  rerun: ((id: string) => string) | undefined,
  manifest?: Pick<Manifest, 'profiles'> & Partial<Pick<Manifest, 'design'>>,
): GoldenResult {
  const v = r.verdict;
  const out: GoldenResult = {
    id: c.id,
    kind: 'case',
    level: caseLevel(c, manifest),
    status: v.status,
    requirements: v.status === 'flaky' ? withFlakyRequirement(v.requirements ?? c.requirements) : (v.requirements ?? c.requirements),
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
  out.defect = defectFrom(v);
  if (v.broke) out.broke = v.broke;
  if (r.answers) out.answers = r.answers;
  out.request = manifest ? caseAsSent(c, manifest).request : c.request;
  if (rerun) out.rerun = rerun(c.id);
  if (r.stderr) out.stderr = r.stderr;
  if (r.stderr && r.stderrInFlight) out.stderr_in_flight = r.stderrInFlight;
  return out;
}

/** The id of the result that holds the answers that answered no request in flight. */
export const UNEXPECTED_ANSWERS_ID = 'transport/unexpected-answers';

/**
 * Answers that answered no request in flight (a second answer to one already
 * answered) belong to no case, and are no less a fault (PROTO-3: one answer
 * per request): an `error` of the implementation's run.
 */
export function unexpectedAnswersResult(impl: Implementation, manifest: Pick<Manifest, 'profiles'>): CaseResult | undefined {
  const u = impl.unexpectedAnswers?.();
  if (!u) return undefined;
  const first = u.lines.length === 1 ? 'it' : `the first ${u.lines.length}`;
  return {
    id: UNEXPECTED_ANSWERS_ID,
    kind: 'case',
    // A fault of the exchange, judged at whatever level the run is (an any-only manifest's is the any level).
    level: anyOnly(manifest) ? 'any' : 'profile',
    tags: [],
    status: 'error',
    requirements: ['PROTO-3'],
    description: 'every answer line answers a request in flight',
    duration_ms: 0,
    message: `${u.count} answer line${u.count === 1 ? '' : 's'} answered a request already answered (PROTO-3: one answer line per request); ${first}: ${u.lines.join('; ')}`,
  };
}

export async function runSuite(o: RunOptions): Promise<Report> {
  const started = new Date();
  const t0 = performance.now();
  const rerun = o.rerun;
  const matches = idMatcher(o.filter);
  const spec = o.spec;
  const cases = inShard(o.cases.filter((c) => matches(c) && (spec === undefined || holdsIn(c.since, spec))).sort(byId), o.shard);
  const withProperties = o.properties > 0 && (!o.shard || o.shard.index === 1);
  const repeat = Math.max(1, o.repeat ?? 1);
  // The properties the filter takes, known before the cases run: progress counts results, as the summary does.
  const propertyNames = withProperties ? await selectedProperties(o, matches) : [];
  // Round r sends every case once; a case's repeats are apart by a whole round.
  const sends = cases.length * repeat;
  const total = cases.length + propertyNames.length;
  const stopped = (): boolean => o.signal?.aborted === true;
  const design = o.manifest.profiles.includes('any') ? await prepareDesign(o.manifest) : undefined;

  const runs: CaseRun[][] = cases.map(() => []);
  /** Rounds answered per case: a case is done (counted) when every round of it is. */
  const answered: number[] = cases.map(() => 0);
  let done = 0;
  let next = 0;
  const breathe = breather();
  const worker = async (): Promise<void> => {
    while (next < sends && !stopped()) {
      const k = next++;
      const i = k % cases.length;
      const round = Math.floor(k / cases.length);
      const c = cases[i]!;
      o.onProgress?.(done, total, repeat > 1 ? `${c.id} (${round + 1}/${repeat})` : c.id);
      const r = await runCase(c, o.impl, o.manifest, o.timeoutMs, design);
      // An answer after the signal is not kept: the stdio adapter kills its processes on it, so it may be a crash of the kit's making.
      if (stopped()) return;
      runs[i]![round] = r;
      if (++answered[i]! === repeat) done++;
      await breathe();
    }
  };
  await untilStopped(Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, sends)) }, worker)), o.signal);
  const judged = cases.map((_, i) => answered[i] === repeat);
  const judgedCases = cases.filter((_, i) => judged[i]);
  const combined = cases.flatMap((_, i) => (judged[i] ? [combineCaseRuns(runs[i]!)] : []));
  const results: CaseResult[] = judgedCases.map((c, i) => toResult(c, combined[i]!, rerun, o.manifest));
  const observe = o.observations ? await import('./observe.js') : undefined;
  if (observe && o.observations) observe.observeCases(o.observations, judgedCases, combined, o.manifest);

  let props: PropertyResult[] = [];
  if (propertyNames.length > 0 && !stopped()) {
    const { runProperties } = await import('../judging/properties/index.js');
    o.onProgress?.(done, total, `properties (${propertyNames.length} × ${o.properties} runs${repeat > 1 ? `, ${repeat} times` : ''})`);
    // Each repeat replays the same seed: a deterministic implementation gives the same results.
    const rounds: PropertyResult[][] = [];
    for (let r = 0; r < repeat && !stopped(); r++) {
      rounds.push(
        await runProperties(o.impl, o.manifest, {
          runs: o.properties,
          seed: o.seed,
          timeoutMs: o.timeoutMs,
          concurrency: o.concurrency,
          only: propertyNames,
          ...(o.saveCounterexamples ? { saveCounterexamples: o.saveCounterexamples } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          // The last round completes a property: each one finished is a result of the summary.
          ...(r === repeat - 1 ? { onResult: () => o.onProgress?.(++done, total, `properties (${propertyNames.length} × ${o.properties} runs)`) } : {}),
        }),
      );
    }
    // A property is judged when every round of it finished before the signal.
    const complete = rounds.length === repeat ? propertyNames.filter((name) => rounds.every((round) => round.some((p) => p.id === `property/${name}`))) : [];
    const kept = rounds.map((round) => round.filter((p) => complete.includes(p.id.slice('property/'.length))));
    props = (complete.length > 0 ? combinePropertyRounds(kept) : [])
      .map((p: PropertyResult) => (rerun && p.status !== 'pass' && p.status !== 'skip' && !p.rerun ? { ...p, rerun: rerun(p.id) } : p))
      .sort(byId);
    if (observe && o.observations && !stopped()) await observe.observeProperties(o.observations, props, o.impl, o.manifest, o.timeoutMs);
  }
  o.onProgress?.(results.length + props.length, total, '');

  const unexpected = unexpectedAnswersResult(o.impl, o.manifest);
  const all = [...results, ...props, ...(unexpected ? [unexpected] : [])];
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
