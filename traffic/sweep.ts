/**
 * One block set at every budget, against the reference and the
 * implementation: where they first disagree, and at which budgets each block
 * is included by each (the inclusion chart of the HTML report). Each budget is
 * judged as a replayed request is (judge.ts), so a disagreement is the same
 * finding there as anywhere, and is shrunk and saved the same way.
 */
import { estimateTokens, MAX_BUDGET, RANKED_HEADER, utcDate } from '../reference/index.js';
import { profileOf } from '../judging/properties/answers.js';
import type { Answer } from '../judging/properties/answers.js';
import { referenceAnswer } from '../judging/properties/catalog.js';
import { declaredConstants } from '../judging/expectation.js';
import { summarize } from '../protocol/types.js';
import type { AdapterName, BudgetIntervals, CaseResult, Implementation, Manifest, Report, SweepInfo } from '../protocol/types.js';
import type { DeclaredConstants } from '../protocol/assembly.js';
import { caseName, shrinkAndSave } from './replay/counterexample.js';
import { judgeRecorded, RecordedJudge } from './replay/judge.js';
import { reportOf } from '../running/envelope.js';
import type { Judged } from './replay/judge.js';
import { breather, stopReason, untilStopped } from '../vocabulary/stopping.js';
import { defectFrom } from '../vocabulary/defect.js';
import { recordLevel } from '../vocabulary/levels.js';
import { anyOnly } from '../protocol/levels.js';
import type { ObservationLog } from '../diagnosis/log.js';
import { recordedObservation } from '../diagnosis/recorded.js';

type Obj = Record<string, unknown>;
interface BlockLike {
  block_id: string;
  content: string;
  created_at?: number;
}

/** Budgets swept when none are given: at most this many, the step widened to fit. */
export const MAX_SWEPT_BUDGETS = 2001;
/** Timeouts and crashes after which the remaining budgets are not asked. */
export const MAX_STALLS = 5;

/**
 * A budget at which every live block fits (given a valid request): in
 * `tiered` the pinned costs, then the other blocks' costs plus the at most 3
 * tokens the floors of the four tier budgets leave out (TIER-6), grown by the
 * share the tier budgets leave undistributed; in `ranked` the header and
 * every line. Under declared constants (SPEC section 17) costs take the
 * declared chars per token and the tier budgets the declared shares; ranked
 * keeps NUM-2's (DECL-3).
 */
export function budgetAdmittingAll(request: unknown, constants?: DeclaredConstants): number {
  const blocks = (request as { blocks: (BlockLike & { pinned?: unknown })[] }).blocks;
  if (profileOf(request) === 'ranked') {
    return Math.min(
      estimateTokens(RANKED_HEADER) +
        blocks.reduce((s, b) => s + estimateTokens(`- [${b.created_at === undefined ? 'undated' : utcDate(b.created_at)}] ${b.content}`), 0),
      MAX_BUDGET,
    );
  }
  const perToken = constants?.chars_per_token;
  const cost = (b: BlockLike): number => (perToken === undefined ? estimateTokens(b.content) : estimateTokens(b.content, perToken));
  let pinned = 0;
  let rest = 0;
  for (const b of blocks) {
    if (b.pinned === true) pinned += cost(b);
    else rest += cost(b);
  }
  // Each floor loses less than 1, so the tier budgets sum past B * shares / 100 - 4: at least `rest` when B * shares / 100 >= rest + 3.
  const shares = constants?.tier_fractions ? Object.values(constants.tier_fractions).reduce((a, b) => a + b, 0) : 100;
  const forTiers = shares > 0 ? Math.ceil(((rest + 3) * 100) / shares) : rest + 3;
  return Math.min(pinned + forTiers, MAX_BUDGET);
}

export interface BudgetRange {
  from: number;
  to: number;
  step: number;
}

/** `A..B` or `A..B/STEP`, integers, A <= B; undefined when the text is not that. */
export function parseBudgets(text: string): BudgetRange | undefined {
  const m = /^(\d+)\.\.(\d+)(?:\/(\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const [from, to, step] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to > MAX_BUDGET || from > to || !(step >= 1)) return undefined;
  return { from, to, step };
}

/** The budgets of a range, its last budget always among them. */
function budgetsOf(r: BudgetRange): number[] {
  const out: number[] = [];
  for (let b = r.from; b <= r.to; b += r.step) out.push(b);
  if (out[out.length - 1] !== r.to) out.push(r.to);
  return out;
}

/** Runs of consecutive indices where `on(i)` holds, as budget intervals. */
function intervals(budgets: number[], on: (i: number) => boolean): BudgetIntervals {
  const out: BudgetIntervals = [];
  let start = -1;
  for (let i = 0; i <= budgets.length; i++) {
    const yes = i < budgets.length && on(i);
    if (yes && start < 0) start = i;
    if (!yes && start >= 0) {
      out.push([budgets[start]!, budgets[i - 1]!]);
      start = -1;
    }
  }
  return out;
}

export interface SweepOptions {
  request: unknown;
  /** Where the block set came from: a case id, `FILE:LINE`, `generated (seed N)`. */
  source: string;
  impl: Implementation;
  manifest: Manifest;
  timeoutMs: number;
  concurrency: number;
  /** Default: 0 to budgetAdmittingAll, at most MAX_SWEPT_BUDGETS of them. */
  budgets?: BudgetRange;
  /** Shrink the request at the first disagreement. */
  shrink: boolean;
  saveCounterexamples?: string;
  onProgress?: (done: number, total: number) => void;
  /** Aborted (SIGINT, SIGTERM): no budget is asked after it, and a disagreement found is not shrunk. */
  signal?: AbortSignal;
  adapter?: AdapterName;
  target?: string;
  /** Where the sweep keeps what its diagnosis reads: each budget judged is one request. */
  observations?: ObservationLog;
}

interface AtBudget extends Judged {
  /** The reference's answer at this budget, with the implementation's capabilities. */
  reference: Answer;
  /** Not asked: the sweep was interrupted first. Nothing is said of such a budget, on either side. */
  unswept?: true;
}

/** Every budget judged, at most `concurrency` in flight. */
async function judgeAll(o: SweepOptions, budgets: number[], progress?: (done: number) => void): Promise<AtBudget[]> {
  const out: AtBudget[] = new Array(budgets.length);
  let next = 0;
  let done = 0;
  let stalled = 0;
  const breathe = breather();
  const judge = new RecordedJudge(o.manifest);
  const worker = async (): Promise<void> => {
    while (next < budgets.length && !o.signal?.aborted) {
      const i = next++;
      const request = { ...(o.request as Obj), budget: budgets[i] };
      const reference = referenceAnswer(request, o.manifest.capabilities, declaredConstants(o.manifest));
      // An implementation that hangs would cost the time limit at every budget: past a few, the rest are not asked.
      if (stalled >= MAX_STALLS) {
        out[i] = {
          verdict: { status: 'skip', message: `not asked: the implementation timed out or crashed at ${MAX_STALLS} budgets`, requirements: [] },
          ms: 0,
          reference,
        };
      } else {
        const judged = await judgeRecorded(o.impl, judge, request, { timeoutMs: o.timeoutMs, twice: false });
        // An answer after the signal is not kept (the stdio adapter kills its processes on it).
        if (o.signal?.aborted) return;
        out[i] = { ...judged, reference };
        const status = out[i]!.verdict.status;
        if (o.observations && status !== 'skip')
          o.observations.add(recordedObservation(`sweep/${o.source}@${budgets[i]}`, request, o.manifest, out[i]!.outcome, status === 'pass'), [budgets[i]!]);
        if (out[i]!.verdict.status === 'timeout' || out[i]!.verdict.status === 'crash') stalled++;
      }
      progress?.(++done);
      await breathe();
    }
  };
  await untilStopped(Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, budgets.length)) }, worker)), o.signal);
  // Interrupted: the budgets not answered before the signal were not asked.
  for (let i = 0; i < budgets.length; i++) {
    if (out[i] === undefined) {
      const request = { ...(o.request as Obj), budget: budgets[i] };
      out[i] = {
        verdict: { status: 'skip', message: `not asked: ${stopReason(o.signal!)}`, requirements: [] },
        ms: 0,
        reference: referenceAnswer(request, o.manifest.capabilities, declaredConstants(o.manifest)),
        unswept: true,
      };
    }
  }
  return out;
}

/** "swept 877 of 4000 budgets before the interrupt (SIGINT)". */
const sweptBefore = (swept: number, count: number, signal: AbortSignal): string =>
  `swept ${swept} of ${count} budgets before the interrupt (${String(signal.reason ?? 'aborted')})`;

const included = (j: AtBudget | undefined, who: 'reference' | 'answer'): Set<string> | undefined => {
  const a = j?.[who];
  return a?.kind === 'result' ? new Set(a.value.included) : undefined;
};

export async function sweep(o: SweepOptions): Promise<Report> {
  const started = new Date();
  const t0 = performance.now();
  const range: BudgetRange =
    o.budgets ??
    (() => {
      const to = budgetAdmittingAll(o.request, declaredConstants(o.manifest));
      return { from: 0, to, step: Math.max(1, Math.ceil((to + 1) / MAX_SWEPT_BUDGETS)) };
    })();
  const budgets = budgetsOf(range);
  const judged = await judgeAll(o, budgets, (d) => o.onProgress?.(d, budgets.length));
  const differs = (i: number): boolean => judged[i]!.verdict.status !== 'pass' && judged[i]!.verdict.status !== 'skip';

  // Between two swept budgets a step apart, the first disagreement is looked for budget by budget.
  const first = budgets.findIndex((_, i) => differs(i));
  let firstBudget: number | null = first < 0 ? null : budgets[first]!;
  let firstJudged = first < 0 ? undefined : judged[first];
  if (first > 0 && range.step > 1) {
    const gap: number[] = [];
    for (let b = budgets[first - 1]! + 1; b < budgets[first]! && gap.length < MAX_SWEPT_BUDGETS; b++) gap.push(b);
    const fine = o.signal?.aborted ? [] : await judgeAll(o, gap);
    const k = fine.findIndex((j) => j.verdict.status !== 'pass' && j.verdict.status !== 'skip');
    if (k >= 0) {
      firstBudget = gap[k]!;
      firstJudged = fine[k];
    }
  }

  const ids: string[] = [];
  for (const b of (o.request as { blocks: { block_id: string }[] }).blocks) if (!ids.includes(b.block_id)) ids.push(b.block_id);
  // Both sides only where the implementation was asked: past an interrupt the chart and the table claim nothing.
  const refSets = judged.map((j) => (j.unswept ? undefined : included(j, 'reference')));
  const implSets = judged.map((j) => included(j, 'answer'));
  const swept = judged.filter((j) => !j.unswept).length;
  const last = refSets[refSets.length - 1];
  let admitsFrom: number | null = null;
  if (last) {
    for (let i = refSets.length - 1; i >= 0; i--) {
      const s = refSets[i];
      if (!s || s.size !== last.size || [...last].some((id) => !s.has(id))) break;
      admitsFrom = budgets[i]!;
    }
  }
  const firstIn = (id: string): number => {
    const i = refSets.findIndex((s) => s?.has(id));
    return i < 0 ? Infinity : i;
  };
  const info: SweepInfo = {
    source: o.source,
    budgets: { ...range, count: budgets.length, ...(swept < budgets.length ? { swept } : {}) },
    admits_all_from: admitsFrom,
    judged_by: anyOnly(o.manifest) ? 'principles' : 'reference',
    first_disagreement: firstBudget,
    disagreements: intervals(budgets, differs),
    reference_errors: intervals(budgets, (i) => !judged[i]!.unswept && judged[i]!.reference?.kind === 'error'),
    implementation_errors: intervals(budgets, (i) => judged[i]!.answer?.kind === 'error' || (differs(i) && judged[i]!.answer === undefined)),
    // Rows in the order the reference lets blocks in as the budget grows.
    blocks: [...ids]
      .sort((a, b) => firstIn(a) - firstIn(b))
      .map((id) => ({
        block_id: id,
        reference: intervals(budgets, (i) => refSets[i]?.has(id) === true),
        implementation: intervals(budgets, (i) => implSets[i]?.has(id) === true),
      })),
  };

  const result: CaseResult = {
    id: `sweep/${o.source}`,
    kind: 'sweep',
    // A manifest of the any level alone is judged by the principles at each budget (judgeRecorded): its level says so (LVL-1).
    level: recordLevel(o.manifest),
    status: 'pass',
    requirements: [],
    duration_ms: 0,
    description: `the block set of ${o.source} at every budget of ${range.from}..${range.to}${range.step > 1 ? ` (step ${range.step})` : ''}`,
  };
  const skipped = judged.find((j) => j.verdict.status === 'skip');
  if (firstJudged) {
    const v = firstJudged.verdict;
    const request = { ...(o.request as Obj), budget: firstBudget };
    const count = judged.filter((_, i) => differs(i)).length;
    const stopped = swept < budgets.length && o.signal?.aborted ? `; ${sweptBefore(swept, budgets.length, o.signal)}: nothing is known of the others` : '';
    Object.assign(result, {
      status: v.status,
      requirements: v.requirements,
      message:
        `${
          info.judged_by === 'principles'
            ? `first budget that breaks a principle: ${firstBudget}; ${count} of ${swept} swept budgets break one`
            : `first disagreement at budget ${firstBudget}; ${count} of ${swept} swept budgets disagree`
        } ` + `(${info.disagreements.map(([a, b]) => (a === b ? `${a}` : `${a}..${b}`)).join(', ')})${stopped}\n${v.message ?? v.status}`,
      request,
      ...(v.expected !== undefined ? { expected: v.expected } : {}),
      ...(v.actual !== undefined ? { actual: v.actual } : {}),
      ...(firstJudged.stderr ? { stderr: firstJudged.stderr } : {}),
      ...(firstJudged.stderr && firstJudged.stderrInFlight ? { stderr_in_flight: firstJudged.stderrInFlight } : {}),
      defect: defectFrom(v),
    });
    if (o.shrink && (v.status === 'fail' || v.status === 'error') && !o.signal?.aborted) {
      const s = await shrinkAndSave({
        impl: o.impl,
        manifest: o.manifest,
        timeoutMs: o.timeoutMs,
        twice: false,
        request,
        status: v.status,
        requirements: v.requirements,
        found: `sweeping ${o.source} at budget ${firstBudget}`,
        name: caseName('sweep', o.source, firstBudget!),
        tag: 'sweep',
        ...(o.saveCounterexamples !== undefined ? { dir: o.saveCounterexamples } : {}),
        ...(o.signal ? { signal: o.signal } : {}),
      });
      result.counterexample = s.request;
      result.message += `\n${s.note}`;
      if (s.verdict) result.defect = defectFrom(s.verdict);
    }
  } else if (o.signal?.aborted) {
    // Agreement at the budgets asked is no verdict on the sweep.
    result.status = 'skip';
    result.message = `${sweptBefore(swept, budgets.length, o.signal)}: no disagreement among them; nothing is known of the other ${budgets.length - swept}`;
  } else if (skipped && judged.every((j) => j.verdict.status === 'skip')) {
    result.status = 'skip';
    result.message = skipped.verdict.message ?? 'skip';
  }
  result.duration_ms = Math.round(judged.reduce((s, j) => s + j.ms, 0) * 1000) / 1000;
  const cases = [result];
  return reportOf({
    manifest: o.manifest,
    ...(o.adapter ? { adapter: o.adapter } : {}),
    ...(o.target ? { target: o.target } : {}),
    started,
    durationMs: performance.now() - t0,
    summary: summarize(cases),
    cases,
    extra: { sweep: info },
  });
}
