/**
 * `--repeat N`: every case is sent N times, in N rounds over the whole
 * selection (so other requests come between two sends of one, as they would
 * reveal state kept from earlier requests), and every property is run N times
 * from its seed. REQ-2 makes the answer a pure function of the request, so
 * answers that differ between repeats make the case `flaky`, whatever each
 * alone would have been judged: the verdict of one send would be luck.
 */
import { isDeepStrictEqual } from 'node:util';
import { deepStrictEqualJson } from '../protocol/deep-json.js';
import { compact } from '../judging/judge.js';
import { requestStderrOf } from '../protocol/types.js';
import type { ContractResult, Outcome, PropertyResult, RepeatAnswer, Status, RequestStderr } from '../protocol/types.js';
import type { Verdict } from '../vocabulary/types.js';

/** One send of a case: the verdict, and the outcome it was judged on (absent for a skip before sending). */
export interface CaseRun extends RequestStderr {
  verdict: Verdict;
  ms: number;
  outcome?: Outcome;
}

/** A case's runs taken together: one of them when all answered alike, else a `flaky` verdict with the answers. */
export interface CombinedRun extends CaseRun {
  answers?: RepeatAnswer[];
}

const FLAKY_REQUIREMENT = 'REQ-2';

/**
 * What is compared between repeats: the answer itself (a result or an error
 * answer, member for member, -0 apart from 0) or, for no answer, only what
 * kind of failure it was (a timeout's or crash's message carries timings).
 */
export function answerKey(o: Outcome | undefined): unknown {
  if (o === undefined) return { kind: 'none' };
  switch (o.kind) {
    case 'result':
    case 'error':
      return { kind: o.kind, value: o.value };
    case 'protocol':
      return { kind: o.kind, raw: o.raw };
    default:
      return { kind: o.kind };
  }
}

/** What a report shows of an answer: the value that came back, or nothing for a timeout or crash. */
function shownAnswer(o: Outcome | undefined): unknown {
  if (o === undefined) return undefined;
  if (o.kind === 'result' || o.kind === 'error') return o.value;
  if (o.kind === 'protocol') return o.raw;
  return undefined;
}

function groupBy<T>(items: readonly T[], key: (t: T) => unknown): Array<{ key: unknown; repeats: number[]; first: T }> {
  const groups: Array<{ key: unknown; repeats: number[]; first: T }> = [];
  items.forEach((t, i) => {
    const k = key(t);
    // Answers may nest as deep as JSON allows: isDeepStrictEqual recurses.
    const g = groups.find((x) => deepStrictEqualJson(x.key, k, isDeepStrictEqual));
    if (g) g.repeats.push(i + 1);
    else groups.push({ key: k, repeats: [i + 1], first: t });
  });
  return groups;
}

const which = (repeats: readonly number[]): string => `repeat${repeats.length > 1 ? 's' : ''} ${repeats.join(', ')}`;

function firstLine(s: string | undefined, max = 300): string {
  const line = (s ?? '').split('\n')[0]!;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The members of the answers whose values are not the same in all of them (none when an answer is not an object). */
function differingMembers(answers: readonly RepeatAnswer[]): string[] {
  const values = answers.map((a) => a.answer);
  if (!values.every(isRecord)) return [];
  const names = [...new Set(values.flatMap((v) => Object.keys(v)))];
  return names.filter((k) => values.some((v) => !isDeepStrictEqual(v[k], values[0]![k])));
}

/** One answer's line: its status and what sets it apart (the differing members), else its message. */
function answerLine(a: RepeatAnswer, members: readonly string[]): string {
  const head = `  ${which(a.repeats)}: ${a.status}`;
  if (members.length > 0 && isRecord(a.answer)) {
    const v = a.answer;
    const shown = members.map((m) => `${m} ${m in v ? compact(v[m], 120) : '(absent)'}`).join('; ');
    return `${head}: ${shown}${a.status !== 'pass' && a.message ? ` (${firstLine(a.message, 120)})` : ''}`;
  }
  return `${head}${a.message ? `: ${firstLine(a.message)}` : a.answer !== undefined ? `: ${compact(a.answer, 200)}` : ''}`;
}

/** The message of a flaky result: how many answers and which members differ between them, then each answer with its repeats and status. */
function flakyMessage(what: string, n: number, answers: readonly RepeatAnswer[], lines?: readonly string[]): string {
  const members = differingMembers(answers);
  const differ = lines === undefined && members.length > 0 ? `; they differ in ${members.join(', ')}` : '';
  const shown = lines ?? answers.map((a) => answerLine(a, members));
  return `${what} ${n} times gave ${answers.length} different answers (${FLAKY_REQUIREMENT}: the answer is a pure function of the request)${differ}:\n${shown.join('\n')}`;
}

/** N sends of one case as one verdict. */
export function combineCaseRuns(runs: readonly CaseRun[]): CombinedRun {
  if (runs.length === 0) throw new Error('combineCaseRuns: no runs');
  const ms = runs.reduce((sum, r) => sum + r.ms, 0);
  const groups = groupBy(runs, (r) => answerKey(r.outcome));
  if (groups.length === 1) return { ...runs[0]!, ms };
  const answers: RepeatAnswer[] = groups.map((g) => {
    const v = g.first.verdict;
    const answer = shownAnswer(g.first.outcome);
    return { repeats: g.repeats, status: v.status, ...(v.message ? { message: v.message } : {}), ...(answer !== undefined ? { answer } : {}) };
  });
  const withStderr = runs.find((r) => r.stderr);
  return {
    verdict: { status: 'flaky', message: flakyMessage('sent', runs.length, answers) },
    ms,
    answers,
    ...(withStderr ? requestStderrOf(withStderr) : {}),
  };
}

/** A flaky case blames REQ-2 besides what the case tests. */
export function withFlakyRequirement(requirements: readonly string[]): string[] {
  return requirements.includes(FLAKY_REQUIREMENT) ? [...requirements] : [...requirements, FLAKY_REQUIREMENT];
}

/**
 * What is compared between the replays of one property: its status and the
 * run (the generated input) it first failed at. The shrunk path may end
 * earlier on one replay when shrinking ran out of time, so it is not compared.
 */
function propertyKey(r: PropertyResult | ContractResult): unknown {
  const path = pathOf(r);
  return { status: r.status, failedAt: path === undefined ? undefined : path.split(':')[0] };
}

/** A property's fast-check path; a contract run has none. */
const pathOf = (r: PropertyResult | ContractResult): string | undefined => (r.kind === 'property' ? r.path : undefined);

/** N runs of the properties (or contract clauses) from one seed (each round in the same order) as one result each. */
export function combinePropertyRounds<R extends PropertyResult | ContractResult>(rounds: readonly R[][]): R[] {
  if (rounds.length === 0) return [];
  return rounds[0]!.map((first, j) => {
    const results = rounds.map((round) => round[j]!);
    const duration_ms = results.reduce((sum, r) => sum + r.duration_ms, 0);
    const groups = groupBy(results, propertyKey);
    if (groups.length === 1) return { ...first, duration_ms };
    const answers: RepeatAnswer[] = groups.map((g) => ({
      repeats: g.repeats,
      status: g.first.status as Status,
      ...(g.first.message ? { message: g.first.message } : {}),
      ...(g.first.counterexample !== undefined ? { answer: g.first.counterexample } : {}),
    }));
    const failed = results.find((r) => r.status !== 'pass' && r.status !== 'skip') ?? first;
    // What sets the replays apart: the run each first failed at (the messages of one property read alike).
    const lines = groups.map((g) => {
      const path = pathOf(g.first);
      const at = path === undefined ? '' : ` at run ${Number(path.split(':')[0]) + 1}`;
      return `  ${which(g.repeats)}: ${g.first.status}${at}${g.first.message ? `: ${firstLine(g.first.message)}` : ''}`;
    });
    const out: R = {
      ...failed,
      requirements: withFlakyRequirement(failed.requirements),
      status: 'flaky',
      duration_ms,
      message: flakyMessage(`replaying seed ${first.seed ?? '?'}`, results.length, answers, lines),
      answers,
    };
    // The answers stand for what came back: one run's values would be luck.
    if (out.kind === 'property') delete out.expected;
    delete out.actual;
    return out;
  });
}
