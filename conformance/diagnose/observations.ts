/**
 * Observations from judged golden cases: what the diagnosis reads of a case
 * result. The judge that decided the case also decides, for a passing case,
 * whether another answer would have passed (a contradiction).
 */
import { judge } from '../judge/judge.js';
import type { GoldenCase } from '../types.js';
import type { Manifest, Outcome } from '../../protocol/types.js';
import type { Observation } from './diagnose.js';

export function caseObservation(c: GoldenCase, outcome: Outcome, manifest: Manifest, passed: boolean): Observation {
  return { id: c.id, request: c.request, manifest, outcome, passed, accepts: (answer) => judge(c, answer, manifest).status === 'pass' };
}
