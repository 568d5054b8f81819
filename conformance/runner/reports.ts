/**
 * The report-file flags that `run` and `merge` share, and writing them. The
 * writers are imported only when a file is asked for: most runs print and stop.
 */
import type { ReportTargets, WriteOutcome } from '../../report/index.js';
import type { Report } from '../../protocol/types.js';

/** node:util parseArgs options for the report files besides the JSON report (run: --json, merge: -o). */
export const REPORT_FILE_OPTIONS = {
  junit: { type: 'string' },
  markdown: { type: 'string' },
  html: { type: 'string' },
  badge: { type: 'string' },
} as const;

/**
 * Write the reports named in `targets` (absent ones are not written): the
 * paths written, and each that could not be (named, with the reason), after
 * every other one is written.
 */
export async function writeReportFiles(report: Report, targets: ReportTargets): Promise<WriteOutcome> {
  if (!Object.values(targets).some((v) => typeof v === 'string')) return { written: [], failed: [] };
  const { writeEachReport } = await import('../../report/index.js');
  return writeEachReport(report, targets);
}
