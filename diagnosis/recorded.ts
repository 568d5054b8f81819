/**
 * An observation of a request judged as the replay judges one (a replayed or
 * swept request, a probe's exchange, a property's counterexample): the
 * differential property decides. Apart from observations.ts because it needs
 * the properties (and fast-check), which a run that observes only golden cases
 * need not load.
 */
import { agreesWithReference } from '../judging/properties/agrees.js';
import { genContext } from '../judging/properties/arbitraries.js';
import type { Manifest, Outcome } from '../protocol/types.js';
import type { Observation } from './diagnose.js';
import { unanswered } from './observations.js';

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
