/**
 * What a run of golden cases and properties keeps for its diagnosis
 * (conformance/diagnose/): one observation per judged result, beside the
 * results, which stay as they are. Loaded only when a diagnosis is asked for.
 */
import type { ObservationLog } from '../diagnose/log.js';
import { caseObservation, recordedObservation, unanswered } from '../diagnose/observations.js';
import type { CaseResult, Implementation, Manifest } from '../../protocol/types.js';
import type { GoldenCase } from '../types.js';
import type { CombinedRun } from './repeat.js';

/** Each judged case: its answer, its verdict and its judge. A flaky case has no one answer, a case the adapter failed none. */
export function observeCases(log: ObservationLog, cases: readonly GoldenCase[], runs: readonly CombinedRun[], manifest: Manifest): void {
  cases.forEach((c, i) => {
    const r = runs[i]!;
    const status = r.verdict.status;
    if (status === 'skip') return;
    if (status === 'flaky') log.add(unanswered(c.id, c.request, manifest, 'the answers differed between repeats'));
    else if (r.outcome === undefined) log.add(unanswered(c.id, c.request, manifest, r.verdict.message ?? status));
    else log.add(caseObservation(c, r.outcome, manifest, status === 'pass'));
  });
}

/**
 * Each failing property, by its shrunk counterexample: the request is sent
 * once more and its answer observed (the property's result keeps only the
 * view it compared). A passing property has no single request to observe;
 * one that timed out or crashed has no answer to explain.
 */
export async function observeProperties(log: ObservationLog, results: readonly CaseResult[], impl: Implementation, manifest: Manifest, timeoutMs: number): Promise<void> {
  for (const p of results) {
    if (p.status === 'pass' || p.status === 'skip') continue;
    const request = p.counterexample;
    if ((p.status !== 'fail' && p.status !== 'error') || request === undefined) {
      log.add(unanswered(p.id, request, manifest, p.status));
      continue;
    }
    try {
      log.add(recordedObservation(p.id, request, manifest, await impl.assemble(request, { timeoutMs }), false));
    } catch (e) {
      log.add(unanswered(p.id, request, manifest, `the adapter failed: ${e instanceof Error ? e.message : String(e)}`));
    }
  }
}
