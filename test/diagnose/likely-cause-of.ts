/**
 * A judging run over the whole corpus in process, with the observations the
 * diagnosis reads, and its likely cause: what the terminal and every report
 * would say of an implementation written in a test.
 */
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../conformance/cases/load.js';
import { ObservationLog } from '../../conformance/diagnose/index.js';
import { likelyCause } from '../../conformance/runner/likely-cause.js';
import type { LikelyCause } from '../../conformance/runner/likely-cause.js';
import { runSuite } from '../../conformance/runner/run.js';
import type { Manifest, Report } from '../../protocol/types.js';

const corpus = loadCorpus();

/** The run's report (with diagnosis and principles when something failed) and its likely cause. */
export async function likelyCauseOf(
  assemble: (request: unknown) => unknown,
  manifest: Manifest,
  { timeoutMs = 5000, concurrency = 4 }: { timeoutMs?: number; concurrency?: number } = {},
): Promise<{ report: Report; cause: LikelyCause | undefined }> {
  const log = new ObservationLog();
  const report = await runSuite({
    cases: corpus.cases,
    impl: fromFunctions(assemble, undefined, manifest),
    manifest,
    timeoutMs,
    concurrency,
    properties: 0,
    seed: 1,
    observations: log,
  });
  const cause = await likelyCause(report, log);
  return { report: cause?.report ?? report, cause };
}
