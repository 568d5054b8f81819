/**
 * Observations, what the diagnosis reads of a judged result: from a golden
 * case (the judge that decided the case also decides, for a passing case,
 * whether another answer would have passed: a contradiction), and of a result
 * with no answer to explain. A request judged as the replay judges one is
 * observed in recorded.ts.
 */
import { judge } from '../judging/judge.js';
import type { GoldenCase } from '../vocabulary/types.js';
import type { Manifest, Outcome } from '../protocol/types.js';
import type { Observation } from './diagnose.js';

export function caseObservation(c: GoldenCase, outcome: Outcome, manifest: Manifest, passed: boolean): Observation {
  return { id: c.id, request: c.request, manifest, outcome, passed, accepts: (answer) => judge(c, answer, manifest).status === 'pass' };
}

/** A failing result with no answer any model could give (a timeout, a crash, answers that differ between repeats): explained by nothing. */
export function unanswered(id: string, request: unknown, manifest: Manifest, why: string): Observation {
  return { id, request, manifest, outcome: { kind: 'protocol', message: why }, passed: false };
}
