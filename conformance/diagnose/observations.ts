/**
 * Observations, what the diagnosis reads of a judged result: from a golden
 * case (the judge that decided the case also decides, for a passing case,
 * whether another answer would have passed: a contradiction), and from a
 * request judged as the replay judges one (a replayed or swept request, a
 * property's counterexample: the differential property decides).
 */
import { judge } from '../judge/judge.js';
import { agreesWithReference } from '../properties/agrees.js';
import { genContext } from '../properties/arbitraries.js';
import type { GoldenCase } from '../types.js';
import type { Manifest, Outcome } from '../../protocol/types.js';
import type { Observation } from './diagnose.js';

export function caseObservation(c: GoldenCase, outcome: Outcome, manifest: Manifest, passed: boolean): Observation {
  return { id: c.id, request: c.request, manifest, outcome, passed, accepts: (answer) => judge(c, answer, manifest).status === 'pass' };
}

/** A failing result with no answer any model could give (a timeout, a crash, answers that differ between repeats): explained by nothing. */
export function unanswered(id: string, request: unknown, manifest: Manifest, why: string): Observation {
  return { id, request, manifest, outcome: { kind: 'protocol', message: why }, passed: false };
}

/**
 * A request judged against the reference. A failing one whose answer agrees
 * with the reference failed another check (determinism, or a property that
 * compares two answers): no defect of one answer explains it, so it is
 * observed as unanswered.
 */
export function recordedObservation(id: string, request: unknown, manifest: Manifest, outcome: Outcome | undefined, passed: boolean): Observation {
  const accepts = agreesWithReference(request, genContext(manifest));
  if (outcome === undefined) return unanswered(id, request, manifest, 'no readable answer');
  if (!passed && accepts(outcome)) return unanswered(id, request, manifest, 'the answer agrees with the reference; another check failed');
  return { id, request, manifest, outcome, passed, accepts };
}
