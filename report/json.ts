/** The JSON report: the single source every other format is rendered from. */
import type { CaseResult, Report } from '../protocol/types.js';
import { depthOf, stringifyJson, writeJson } from '../protocol/deep-json.js';
import { levelsReached } from '../protocol/verdict.js';

/**
 * Levels of nesting the JSON report writes of what an implementation said (a result's actual,
 * expected and repeated answers): a member an answer nests deeper (one 300,000 deep) is written
 * there as a string that says so, so the report stays the size of what it shows and a reader's
 * parser can read it (Python's json gives up at about 1,000 levels). A request is written whole,
 * at any depth: it is what a rerun sends (REQ-3 lets an unknown member nest as deep as it likes).
 */
export const REPORT_DEPTH = 256;

/** The value with its containers past REPORT_DEPTH written as the string that says so; the value itself when it is shallower. */
function shownDepth(v: unknown): unknown {
  if (v === undefined || depthOf(v, REPORT_DEPTH + 1) <= REPORT_DEPTH) return v;
  return JSON.parse(writeJson(v, { maxDepth: REPORT_DEPTH }) ?? 'null');
}

function resultShown(c: CaseResult): CaseResult {
  const x = c as CaseResult & { actual?: unknown; expected?: unknown; answers?: { answer?: unknown }[] };
  const deep = (v: unknown): boolean => v !== undefined && depthOf(v, REPORT_DEPTH + 1) > REPORT_DEPTH;
  if (!deep(x.actual) && !deep(x.expected) && !(x.answers ?? []).some((a) => deep(a.answer))) return c;
  return {
    ...x,
    ...(x.actual !== undefined ? { actual: shownDepth(x.actual) } : {}),
    ...(x.expected !== undefined ? { expected: shownDepth(x.expected) } : {}),
    ...(x.answers !== undefined ? { answers: x.answers.map((a) => ({ ...a, answer: shownDepth(a.answer) })) } : {}),
  } as CaseResult;
}

/**
 * At any depth: a recorded request in a result may nest deeper than JSON.stringify goes.
 * The levels are written from the results, so a reader of the JSON need not derive them.
 */
export function renderJson(report: Report): string {
  return stringifyJson({ ...report, cases: report.cases.map(resultShown), levels: levelsReached(report) }, 2) + '\n';
}
