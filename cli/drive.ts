/**
 * What every command that drives an implementation shares: its options and
 * their help, opening the implementation and closing it on every path
 * (withImplementation), and the one ending of a judging command: the engine
 * concludes the run (running/conclude.ts: baseline, likely cause, notes,
 * reports written), and this prints what it gives back (failures, summary,
 * the verdict line) and picks the exit status.
 */
import { kitCommand } from './invocation.js';
import { conclude } from '../running/conclude.js';
import { levelsLine, stripAnsi } from '../report/text.js';
import { DECLARED_PROFILE, verdict, verdictWord } from '../protocol/verdict.js';
import { clauseTable } from '../contract/table.js';
import { formatFailure, implementationLine, progress, summaryTable } from '../running/console.js';
import { describeDefect } from '../vocabulary/defect.js';
import type { ProgressSink } from '../running/console.js';
import { redactorFor } from '../running/open.js';
import type { OpenedImplementation } from '../running/open.js';
import { drivingOptions, openChosen, transportHelp } from './implementation.js';
import type { ChosenImplementation } from './implementation.js';
import type { TransportKind } from '../running/transports.js';
import { EXIT_FAIL, EXIT_INCOMPLETE, EXIT_OK, EXIT_USAGE, UsageError } from './usage.js';
import { printWritten, refusingTargets, reportOptions, reportOptionsHelp, reportTargets } from './report-options.js';
import type { ObservationLog } from '../diagnosis/log.js';
import { FAILING } from '../protocol/types.js';
import type { CaseResult, Report } from '../protocol/types.js';
import { exitStatusOf, interruptedBy, stopSignal } from './interrupt.js';
import { out, redactOnTerminal } from './output.js';
import { terminalValue } from '../report/terminal.js';

export type Values = Record<string, string | boolean | undefined>;

/** The options of a judging command: the implementation's, the reports', progress and help. */
export function judgingOptions(driving?: Parameters<typeof drivingOptions>[0]) {
  return {
    ...drivingOptions(driving),
    ...reportOptions(),
    'save-counterexamples': { type: 'string' },
    baseline: { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const;
}

/** Aborted at SIGINT or SIGTERM: every judging command passes it to its engine (cli/interrupt.ts). */
export { stopSignal };

/** The help of the implementation options, for what the command drives. */
export function implementationHelp(kinds: readonly TransportKind[] = ['assembler']): string {
  return transportHelp(kinds);
}

const SAVE_COUNTEREXAMPLES_HELP = '  --save-counterexamples DIR   write each shrunk failing request as a ready case file\n';

/** The help of the reports' options; a command without counterexample cases to save leaves --save-counterexamples out. */
export const reportsHelp = (o: { saveCounterexamples?: boolean } = {}): string => `reports:
${reportOptionsHelp()}
${o.saveCounterexamples === false ? '' : SAVE_COUNTEREXAMPLES_HELP}  --quiet                 no progress line
  --baseline FILE         known failures: only new ones fail the run (a failure of a
                          baselined id with another defect is new), and so does an entry
                          that now passes (remove it: a baseline only shrinks);
                          ctxconform baseline REPORT.json --write FILE makes one

SIGINT or SIGTERM ends the command within 2 s: the reports hold what was judged
before it, the verdict is INTERRUPTED, and the exit status 130 or 143.`;

/**
 * Open the chosen implementation (implementation.ts), run `fn` with it, and
 * close it whatever happens. A start failure is the engine's StartError
 * (exit 2) before `fn` runs.
 */
export async function withImplementation<T>(chosen: ChosenImplementation, fn: (opened: OpenedImplementation) => Promise<T>): Promise<T> {
  // From here on the terminal redacts its secrets: a start failure may quote them.
  redactOnTerminal(redactorFor(chosen.transport, chosen.config));
  const opened = await openChosen(chosen);
  try {
    return await fn(opened);
  } finally {
    await opened.impl.close();
  }
}

/** Progress on stderr: redrawn on a terminal, a line per tenth in a log; none with --quiet. */
export function progressFor(values: Values): ProgressSink | undefined {
  if (values['quiet']) return undefined;
  return progress(process.stderr, Boolean(process.stderr.isTTY) && process.env['CI'] !== 'true');
}

/** The baseline the ending applies, read by applyBaseline (judging/baseline.ts). */
export async function checkBaseline(file: string | undefined): Promise<void> {
  if (file === undefined) return;
  // Read before the run: a bad baseline is a usage error, not a finding after minutes of cases.
  const { loadBaseline } = await import('../judging/baseline.js');
  try {
    loadBaseline(file);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** What the end of a judging command needs besides the report and the options: see finish. */
export interface FinishOptions {
  /** What the implementation line names: the transport and what it reached. */
  opened: Pick<OpenedImplementation, 'adapter' | 'target'> & Partial<Pick<OpenedImplementation, 'redactor'>>;
  /** What the counts are of, after "of N": `in 0.74 s`, `requests in 3.1 s (900 requests/s)`. */
  what: string;
  /** Failures printed in full (the reports hold them all). */
  printAtMost?: number;
  /** --repeat N: the flaky count is shown whenever N > 1. */
  repeat?: number;
  /** What the verdict line adds at its end (the contract's untested clauses: `; untested: MAPI-11`). */
  suffix?: string;
  /** What the run kept of its judged results: with failures among them, the ending adds the diagnosis (likely-cause.ts). */
  observations?: ObservationLog;
}

/** The deviations by design a baseline excused, each with its reason and link. */
function byDesignLines(report: Report): string[] {
  const ids = report.baseline?.by_design ?? [];
  const notes = report.baseline?.notes ?? {};
  return [
    `${ids.length} deviation${ids.length > 1 ? 's' : ''} by design (baseline):`,
    ...ids.map((id) => {
      const n = notes[id];
      return `  ${terminalValue(id)}${n?.reason ? `: ${terminalValue(stripAnsi(n.reason))}` : ''}${n?.link ? ` (${terminalValue(stripAnsi(n.link))})` : ''}`;
    }),
  ];
}

/** Ids from the cases or the baseline, on one line. */
const ids = (list: readonly string[]): string => list.map(terminalValue).join(', ');

/** The commonest skip reasons, most frequent first, for a run in which everything was skipped. */
function topReasons(cases: readonly CaseResult[]): string {
  const counts = new Map<string, number>();
  for (const c of cases) {
    const why = c.message ?? 'no reason given';
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return top.map(([why, n]) => `${n} × ${terminalValue(why)}`).join('; ') + (counts.size > 3 ? '; ...' : '');
}

/**
 * The end of every judging command: the implementation line, each failure the
 * baseline does not expect, the baseline's known ones, by design and stale
 * entries, the contract's clauses, the summary table, the reports written and
 * the verdict line; the exit status. A run where nothing was put to the test
 * (every result a skip, or none at all) fails, as vitest and pytest fail a run
 * that collected no test.
 */
export async function finish(report: Report, values: Values, e: FinishOptions): Promise<{ status: number; report: Report }> {
  const signal = interruptedBy();
  // Before anything is shown: a service may have put a secret anywhere in the results (an echoed header in a message).
  const concluded = await refusingTargets(async () =>
    conclude(report, {
      ...(e.opened.redactor ? { redactor: e.opened.redactor } : {}),
      ...(signal !== undefined ? { interrupted: signal } : {}),
      ...(typeof values['baseline'] === 'string' ? { baseline: values['baseline'] } : {}),
      ...(e.observations ? { observations: e.observations } : {}),
      adapter: e.opened.adapter,
      targets: await reportTargets(values),
    }),
  );
  const { unexpected, stale, changed, unkeyed, cause, notes } = concluded;
  report = concluded.report;

  out(implementationLine(report, e.opened.adapter, e.opened.target));
  const printAtMost = e.printAtMost ?? Infinity;
  const changedById = new Map(changed.map((x) => [x.result.id, x]));
  for (const c of unexpected.slice(0, printAtMost)) {
    const x = changedById.get(c.id);
    // A baselined id failing another way: said first, so no one reads it under the entry's reason.
    const news = x
      ? `NEW FAILURE of ${terminalValue(c.id)}: not the failure its baseline entry accepts (${terminalValue(describeDefect(x.accepted))}); this one: ${terminalValue(describeDefect(x.found))}\n`
      : '';
    out(`\n${news}${formatFailure(c)}`);
  }
  if (unexpected.length > printAtMost) out(`\n… and ${unexpected.length - printAtMost} more not passing: see the reports`);
  if (cause) out(`\n${cause}`);
  for (const note of notes) out(`\n${note}`);
  const unexpectedIds = new Set(unexpected.map((c) => c.id));
  const byDesign = new Set(report.baseline?.by_design ?? []);
  const known = report.cases.filter((c) => FAILING.has(c.status) && !unexpectedIds.has(c.id) && !byDesign.has(c.id));
  if (known.length > 0) out(`\n${known.length} known failure${known.length > 1 ? 's' : ''} from the baseline: ${ids(known.map((c) => c.id))}`);
  if (byDesign.size > 0) out(byDesignLines(report).join('\n'));
  if (changed.length > 0) out(`new failures of baselined ids (another defect than the entry accepts): ${ids(changed.map((x) => x.result.id))}`);
  if (stale.length > 0) out(`baseline entries that now pass (remove them): ${ids(stale)}`);
  if (unkeyed.length > 0) {
    out(
      `warning: baseline entr${unkeyed.length > 1 ? 'ies' : 'y'} without a defect key, accepting any failure ` +
        `with ${unkeyed.length > 1 ? 'their' : 'its'} status: ${ids(unkeyed)}; re-key: ${kitCommand()} baseline REPORT.json --write ${String(values['baseline'])} (REPORT.json: this run's --json)`,
    );
  }
  const clauses = clauseTable(report);
  if (clauses) out(`\n${clauses}`);
  out(`\n${summaryTable(report)}`);
  const allWritten = printWritten(concluded.written);

  const s = report.summary;
  const v = verdict(report);
  const word = verdictWord(v);
  // The words are the reports' (protocol/verdict.ts verdictWord); the terminal adds why, where the counts do not say it.
  const why =
    word === 'INTERRUPTED'
      ? ` (${signal}: what was not judged before it is not counted)`
      : word === 'NOTHING TESTED'
        ? ` (${s.total === 0 ? 'nothing was selected' : `all ${s.total} selected were skipped: ${topReasons(report.cases)}`})`
        : word === 'INCOMPLETE'
          ? ` (${v.unread} record${v.unread === 1 ? '' : 's'} of the input could not be read: the verdict speaks only for what was read)`
          : word === 'FAIL' && v.unexpected.length === 0
            ? ` (${stale.length} stale baseline entr${stale.length > 1 ? 'ies' : 'y'})`
            : '';
  const flaky = (e.repeat ?? 1) > 1 || s.flaky > 0 ? `${s.flaky} flaky, ` : '';
  out(`\nlevels: ${levelsLine(report)}`);
  out(
    `${word}${report.run?.constants ? ` (${DECLARED_PROFILE})` : ''}${why}: ${s.pass} pass, ${s.fail} fail, ` +
      `${s.error} error, ${s.timeout} timeout, ${s.crash} crash, ${flaky}${s.skip} skip of ${s.total} ${e.what}${e.suffix ?? ''}`,
  );
  // A report asked for and not written is a run that did not do what it was told: CI must not take it for a verdict.
  const status =
    signal !== undefined ? exitStatusOf(signal) : !allWritten ? EXIT_USAGE : v.passed ? EXIT_OK : word === 'INCOMPLETE' ? EXIT_INCOMPLETE : EXIT_FAIL;
  return { status, report };
}
