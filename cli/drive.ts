/**
 * What every command that drives an implementation shares: its options and
 * their help, opening the implementation and closing it on every path
 * (withImplementation), and the one ending of a judging command (failures,
 * baseline, summary, reports, the verdict line, the exit status).
 */
import { DECLARED_PROFILE, stripAnsi } from '../report/text.js';
import { clauseTable } from '../conformance/contract/table.js';
import { formatFailure, implementationLine, progress, summaryTable } from '../conformance/runner/console.js';
import type { ProgressSink } from '../conformance/runner/console.js';
import { openFromOptions } from '../conformance/runner/open.js';
import type { Driven } from '../conformance/runner/open.js';
import { REPORT_FILE_OPTIONS, writeReportFiles } from '../conformance/runner/reports.js';
import { drivingOptions, transportHelp } from '../conformance/runner/transports.js';
import type { TransportKind } from '../conformance/runner/transports.js';
import { EXIT_FAIL, EXIT_OK, UsageError } from '../conformance/usage.js';
import { likelyCause } from '../conformance/runner/likely-cause.js';
import type { ObservationLog } from '../conformance/diagnose/log.js';
import { FAILING } from '../protocol/types.js';
import type { CaseResult, Report } from '../protocol/types.js';

export type Values = Record<string, string | boolean | undefined>;

/** The options of a judging command: the implementation's, the reports', progress and help. */
export function judgingOptions() {
  return {
    ...drivingOptions(),
    json: { type: 'string' },
    ...REPORT_FILE_OPTIONS,
    'save-counterexamples': { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const;
}

/** The help of the implementation options, for what the command drives. */
export function implementationHelp(kinds: readonly TransportKind[] = ['assembler']): string {
  return transportHelp(kinds);
}

export const REPORTS_HELP = `reports:
  --json FILE  --junit FILE  --markdown FILE  --html FILE  --badge FILE
  --save-counterexamples DIR   write each shrunk failing request as a ready case file
  --quiet                 no progress line`;

/**
 * Open the implementation the options name, run `fn` with it, and close it
 * whatever happens. A start failure is a UsageError (exit 2) before `fn` runs.
 */
export async function withImplementation<T>(values: Readonly<Record<string, unknown>>, kinds: readonly TransportKind[], fn: (driven: Driven) => Promise<T>): Promise<T> {
  const driven = await openFromOptions(values, kinds);
  try {
    return await fn(driven);
  } finally {
    await driven.impl.close();
  }
}

/** Progress on stderr: redrawn on a terminal, a line per tenth in a log; none with --quiet. */
export function progressFor(values: Values): ProgressSink | undefined {
  if (values['quiet']) return undefined;
  return progress(process.stderr, Boolean(process.stderr.isTTY) && process.env['CI'] !== 'true');
}

/** The baseline the ending applies, read by applyBaseline (conformance/baseline.ts). */
export async function checkBaseline(file: string | undefined): Promise<void> {
  if (file === undefined) return;
  // Read before the run: a bad baseline is a usage error, not a finding after minutes of cases.
  const { loadBaseline } = await import('../conformance/baseline.js');
  try {
    loadBaseline(file);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export interface Ending {
  driven: Pick<Driven, 'adapter' | 'target'>;
  /** What the counts are of, after "of N": `in 0.74 s`, `requests in 3.1 s (900 requests/s)`. */
  what: string;
  /** Failures printed in full (the reports hold them all). */
  printAtMost?: number;
  /** A shard may be empty by the luck of the split: that is no "nothing tested". */
  shard?: boolean;
  /** --repeat N: the flaky count is shown whenever N > 1. */
  repeat?: number;
  /** A gate of the command's own (the contract's --require-tested): why it fails the run, and what the verdict line adds. */
  gate?: { why?: string; suffix: string };
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
      return `  ${id}${n?.reason ? `: ${stripAnsi(n.reason)}` : ''}${n?.link ? ` (${stripAnsi(n.link)})` : ''}`;
    }),
  ];
}

/** The commonest skip reasons, most frequent first, for a run in which everything was skipped. */
function topReasons(cases: readonly CaseResult[]): string {
  const counts = new Map<string, number>();
  for (const c of cases) {
    const why = c.message ?? 'no reason given';
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return top.map(([why, n]) => `${n} × ${why}`).join('; ') + (counts.size > 3 ? '; ...' : '');
}

async function writeAll(report: Report, values: Values): Promise<string[]> {
  const file = (k: string): string | undefined => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  try {
    return await writeReportFiles(report, { json: file('json'), junit: file('junit'), markdown: file('markdown'), html: file('html'), badge: file('badge') });
  } catch (e) {
    throw new UsageError(`cannot write the reports: ${(e as Error).message}`);
  }
}

/**
 * The end of every judging command: the implementation line, each failure the
 * baseline does not expect, the baseline's known ones, by design and stale
 * entries, the contract's clauses, the summary table, the reports written and
 * the verdict line; the exit status. A run where nothing was put to the test
 * (every result a skip, or none at all) fails, as vitest and pytest fail a run
 * that collected no test.
 */
export async function finish(report: Report, values: Values, e: Ending): Promise<{ status: number; report: Report }> {
  let unexpected: CaseResult[] = report.cases.filter((c) => FAILING.has(c.status));
  let stale: string[] = [];
  if (typeof values['baseline'] === 'string') {
    const { applyBaseline } = await import('../conformance/baseline.js');
    const applied = applyBaseline(report, values['baseline']);
    report = applied.report;
    unexpected = applied.unexpected;
    stale = applied.stale;
  }
  const cause = await likelyCause(report, e.observations);
  if (cause) report = cause.report;

  console.log(implementationLine(report, e.driven.adapter, e.driven.target));
  const printAtMost = e.printAtMost ?? Infinity;
  for (const c of unexpected.slice(0, printAtMost)) console.log(`\n${formatFailure(c)}`);
  if (unexpected.length > printAtMost) console.log(`\n… and ${unexpected.length - printAtMost} more not passing: see the reports`);
  if (cause) console.log(`\n${cause.text}`);
  const unexpectedIds = new Set(unexpected.map((c) => c.id));
  const byDesign = new Set(report.baseline?.by_design ?? []);
  const known = report.cases.filter((c) => FAILING.has(c.status) && !unexpectedIds.has(c.id) && !byDesign.has(c.id));
  if (known.length > 0) console.log(`\n${known.length} known failure${known.length > 1 ? 's' : ''} from the baseline: ${known.map((c) => c.id).join(', ')}`);
  if (byDesign.size > 0) console.log(byDesignLines(report).join('\n'));
  if (stale.length > 0) console.log(`baseline entries that now pass (remove them): ${stale.join(', ')}`);
  const clauses = clauseTable(report);
  if (clauses) console.log(`\n${clauses}`);
  console.log(`\n${summaryTable(report)}`);
  for (const file of await writeAll(report, values)) console.log(`wrote ${file}`);

  const s = report.summary;
  const untested = s.total === s.skip && !e.shard;
  // A baseline only shrinks: an entry that now passes fails the run until it is removed.
  const ok = unexpected.length === 0 && stale.length === 0 && !untested && !e.gate?.why;
  const why = ok
    ? 'OK'
    : e.gate?.why && unexpected.length === 0 && stale.length === 0
      ? e.gate.why
      : untested
      ? `NOTHING TESTED (${s.total === 0 ? 'nothing was selected' : `all ${s.total} selected were skipped: ${topReasons(report.cases)}`})`
      : unexpected.length === 0
        ? `FAILED (${stale.length} stale baseline entr${stale.length > 1 ? 'ies' : 'y'})`
        : 'FAILED';
  const flaky = (e.repeat ?? 1) > 1 || s.flaky > 0 ? `${s.flaky} flaky, ` : '';
  console.log(
    `\n${why}${report.run?.constants ? ` (${DECLARED_PROFILE})` : ''}: ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.timeout} timeout, ${s.crash} crash, ${flaky}${s.skip} skip of ${s.total} ${e.what}${e.gate?.suffix ?? ''}`,
  );
  return { status: ok ? EXIT_OK : EXIT_FAIL, report };
}
