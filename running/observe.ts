/**
 * What a run of golden cases and properties keeps for its diagnosis
 * (diagnosis/): one observation per judged result, beside the
 * results, which stay as they are. Loaded only when a diagnosis is asked for.
 */
import type { ObservationLog } from '../diagnosis/log.js';
import { caseObservation, unanswered } from '../diagnosis/observations.js';
import type { Observation } from '../diagnosis/diagnose.js';
import type { Implementation, Manifest, PropertyResult } from '../protocol/types.js';
import type { GoldenCase } from '../vocabulary/types.js';
import type { CombinedRun } from './repeat.js';
import { caseAsSent } from './sent.js';

/** Each judged case: its answer, its verdict and its judge. A flaky case has no one answer, a case the adapter failed none. */
export function observeCases(log: ObservationLog, cases: readonly GoldenCase[], runs: readonly CombinedRun[], manifest: Manifest): void {
  cases.forEach((c, i) => {
    const r = runs[i]!;
    const status = r.verdict.status;
    if (status === 'skip') return;
    if (status === 'flaky') log.add(unanswered(c.id, c.request, manifest, 'the answers differed between repeats'));
    else if (r.outcome === undefined) log.add(unanswered(c.id, c.request, manifest, r.verdict.message ?? status));
    else log.add(caseObservation(caseAsSent(c, manifest), r.outcome, manifest, status === 'pass'));
  });
}

/**
 * The requests a failing property's result names: its shrunk counterexample,
 * and the partner request a property of two requests sets beside it in
 * `actual` (content-blindness's twin, order-independence's permutation).
 */
function namedRequests(p: PropertyResult): unknown[] {
  const partners =
    typeof p.actual === 'object' && p.actual !== null
      ? Object.entries(p.actual)
          .filter(([k]) => k.endsWith('_request'))
          .map(([, v]) => v)
      : [];
  return [p.counterexample, ...partners].filter((r) => r !== undefined);
}

/**
 * Each failing property, by the first of its requests whose answer is not
 * the reference's: each is sent once more and its answer read whole (the
 * result keeps only the view it compared). When every one of them is
 * answered as the reference answers it, the property failed a relation
 * between answers that no defect of one answer explains. A passing property
 * has no single request to observe; one that timed out or crashed has no
 * answer to explain.
 */
export async function observeProperties(
  log: ObservationLog,
  results: readonly PropertyResult[],
  impl: Implementation,
  manifest: Manifest,
  timeoutMs: number,
): Promise<void> {
  for (const p of results) {
    if (p.status === 'pass' || p.status === 'skip') continue;
    const requests = namedRequests(p);
    if ((p.status !== 'fail' && p.status !== 'error') || requests.length === 0) {
      log.add(unanswered(p.id, p.counterexample, manifest, p.status));
      continue;
    }
    // Loaded here: it needs the properties, which a run without a failing one need not load.
    const { recordedObservation } = await import('../diagnosis/recorded.js');
    let observed: Observation | undefined;
    try {
      for (const request of requests) {
        const o = recordedObservation(p.id, request, manifest, await impl.assemble(request, { timeoutMs }), false);
        observed ??= o;
        if (o.outcome.kind !== 'protocol') {
          observed = o;
          break;
        }
      }
    } catch (e) {
      observed = unanswered(p.id, p.counterexample, manifest, `the adapter failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    // A relation between two answers (a twin selecting otherwise) is broken by neither alone: the property's own principles are.
    const relation = requests.length > 1 ? p.requirements.filter((id) => id.startsWith('ANY-')) : [];
    log.add(relation.length > 0 ? { ...observed!, relation } : observed!);
  }
}
