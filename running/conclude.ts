/**
 * What a judging command's results become before anything is shown: the
 * secrets a service may have echoed taken out, an interruption marked, the
 * baseline applied, the likely cause and the run's notes added, and the
 * reports written. One call from the command line (cli/drive.ts finish),
 * which then only prints what it gets back.
 */
import type { Redactor } from '../protocol/redact.js';
import { FAILING } from '../protocol/types.js';
import type { CaseResult, Defect, Report } from '../protocol/types.js';
import type { ReportTargets, WriteOutcome } from '../report/index.js';
import { writeNamedReports } from '../report/write-named.js';
import type { ObservationLog } from '../diagnosis/log.js';
import { likelyCause } from './likely-cause.js';
import { runNotes } from './run-notes.js';

export interface ConcludeOptions {
  /** The opened implementation's: what it holds is taken out of every result before it is shown or written. */
  redactor?: Pick<Redactor, 'holdsSecrets' | 'value'>;
  /** The signal that ended the run early, if one did. */
  interrupted?: NonNullable<Report['run']>['interrupted'];
  /** The baseline file: only the failures it does not expect are new. */
  baseline?: string;
  /** What the run kept of its judged results: with failures among them, the likely cause is added. */
  observations?: ObservationLog;
  /** How the implementation was reached, for the run's notes (run-notes.ts). */
  adapter: string;
  /** The reports to write, by format name (none: nothing is loaded). */
  targets: ReportTargets;
}

export interface Conclusion {
  /** The report as shown and written. */
  report: Report;
  /** The failures the baseline does not expect (all of them, without a baseline). */
  unexpected: CaseResult[];
  /** Baseline entries that now pass. */
  stale: string[];
  /** Baselined ids failing another way than their entry accepts. */
  changed: Array<{ result: CaseResult; accepted: Defect; found: Defect }>;
  /** Baseline entries without a defect key. */
  unkeyed: string[];
  /** The terminal's likely-cause block, with failures to explain. */
  cause?: string;
  /** What the results say about the way the implementation was reached. */
  notes: string[];
  /** The reports written, and each that could not be. */
  written: WriteOutcome;
}

/** Where in the kit an error was thrown, for a bug report: its first frame in the kit's own files (" at diagnosis/principles.js:120"). */
function whereIn(e: Error): string {
  const frame = (e.stack ?? '')
    .split('\n')
    .find((l) => /(?:dist|diagnosis|running|judging|report|protocol)[/\\][^)]*:\d+/.test(l) && !l.includes('node_modules'));
  const at = frame && /((?:diagnosis|running|judging|report|protocol|reference|vocabulary)[/\\][^():]+:\d+)/.exec(frame);
  return at ? ` (at ${at[1]!.replace(/\\/g, '/')})` : '';
}

/** A ReportTargetError from the writers when two formats are given one file, or a format is not registered. */
export async function conclude(report: Report, o: ConcludeOptions): Promise<Conclusion> {
  if (o.redactor?.holdsSecrets) report = o.redactor.value(report);
  if (o.interrupted !== undefined) report = { ...report, run: { ...report.run, interrupted: o.interrupted } };
  let baselined: Pick<Conclusion, 'unexpected' | 'stale' | 'changed' | 'unkeyed'> = {
    unexpected: report.cases.filter((c) => FAILING.has(c.status)),
    stale: [],
    changed: [],
    unkeyed: [],
  };
  if (o.baseline !== undefined) {
    const { applyBaseline } = await import('../judging/baseline.js');
    const applied = applyBaseline(report, o.baseline);
    report = applied.report;
    baselined = { unexpected: applied.unexpected, stale: applied.stale, changed: applied.changed, unkeyed: applied.unkeyed };
  }
  // The likely cause is a reading of the results, never a condition of the reports: one that throws is said, and every report is still written.
  let cause: { report: Report; text: string } | undefined;
  try {
    cause = await likelyCause(report, o.observations);
  } catch (e) {
    const said = `working out the likely cause failed: ${e instanceof Error ? `${e.name}: ${e.message}${whereIn(e)}` : String(e)}`;
    cause = { report: { ...report, run: { ...report.run, likely_cause_failed: said } }, text: said };
  }
  if (cause) report = cause.report;
  return {
    report,
    ...baselined,
    ...(cause ? { cause: cause.text } : {}),
    notes: runNotes(report, o.adapter),
    written: await writeNamedReports(report, o.targets),
  };
}
