/**
 * The reports a run names, written; none named, the writers are not even
 * loaded (report/index.ts and its formats cost a command that writes nothing).
 */
import type { Report } from '../protocol/types.js';
import type { ReportTargets, WriteOutcome } from './index.js';

/** The paths written, and each that could not be; a ReportTargetError when two formats share a file or one is not registered. */
export async function writeNamedReports(report: Report, targets: ReportTargets): Promise<WriteOutcome> {
  if (Object.keys(targets).length === 0) return { written: [], failed: [] };
  const { writeEachReport } = await import('./index.js');
  return writeEachReport(report, targets);
}
