/**
 * A judging run over the whole corpus in process, with the observations the
 * diagnosis reads, and its likely cause: what the terminal and every report
 * would say of an implementation written in a test.
 */
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { ObservationLog } from '../../diagnosis/index.js';
import { likelyCause } from '../../running/likely-cause.js';
import type { LikelyCause } from '../../running/likely-cause.js';
import { openImplementation } from '../../running/open.js';
import { runSuite } from '../../running/run.js';
import type { GoldenCase } from '../../vocabulary/types.js';
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

/** The same for a command run over stdio as a vendor runs it, with the properties (the golden cases unless `cases` says otherwise). */
export async function likelyCauseOfCommand(
  command: string,
  { properties = 60, seed = 1, cases = corpus.cases }: { properties?: number; seed?: number; cases?: GoldenCase[] } = {},
): Promise<{ report: Report; cause: LikelyCause | undefined }> {
  const opened = await openImplementation({ transport: 'stdio', config: { command }, timeoutMs: 10_000 });
  try {
    const log = new ObservationLog();
    const report = await runSuite({
      cases,
      impl: opened.impl,
      manifest: opened.manifest,
      timeoutMs: 10_000,
      concurrency: 2,
      properties,
      seed,
      observations: log,
    });
    const cause = await likelyCause(report, log);
    return { report: cause?.report ?? report, cause };
  } finally {
    await opened.impl.close();
  }
}
