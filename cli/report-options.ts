/**
 * The report options every command that writes reports takes (run,
 * contract, replay, sweep, merge): one per registered format
 * (report/registry.ts) and `--reports-dir DIR` for all of them, their help,
 * and writing what they name. Formats are loaded before a command reads
 * its options (cli/implementation.ts loadImplementationOptions, or loadFormats).
 */
import { formats } from '../report/registry.js';
import type { Report } from '../protocol/types.js';
import type { ReportTargets, WriteOutcome } from '../report/index.js';
import { err, out } from './output.js';
import { helpLine } from './implementation.js';
import { UsageError } from './usage.js';
import { writeNamedReports } from '../report/write-named.js';

export const REPORTS_DIR = 'reports-dir';

/** node:util parseArgs options: `--NAME FILE` for each format, and --reports-dir. */
export function reportOptions(): Record<string, { type: 'string' }> {
  const out: Record<string, { type: 'string' }> = {};
  for (const f of formats()) out[f.name] = { type: 'string' };
  out[REPORTS_DIR] = { type: 'string' };
  return out;
}

/** Words joined into lines of at most `width` characters. */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** The help lines of the report options. */
export function reportOptionsHelp(): string {
  const names = formats()
    .map((f) => f.file)
    .join(', ');
  const dir = helpLine(
    `--${REPORTS_DIR} DIR`,
    wrap(`every format in DIR, each under its name (${names}); a format's own option below names its file apart`, 64),
  );
  return [dir, ...formats().map((f) => helpLine(`--${f.name} ${f.metavar}`, f.help))].join('\n');
}

type Values = Record<string, string | boolean | undefined>;

/** The files the command line asks for, by format name. */
export async function reportTargets(values: Values): Promise<ReportTargets> {
  const targets: ReportTargets = {};
  for (const f of formats()) if (typeof values[f.name] === 'string') targets[f.name] = values[f.name] as string;
  const dir = values[REPORTS_DIR];
  if (typeof dir !== 'string') return targets;
  const { targetsIn } = await import('../report/index.js');
  return targetsIn(dir, targets);
}

/**
 * Refuse, before a run, report options that cannot all be written as asked: two reports on one
 * file (the badge's JSON beside --json), or a format no entry registers (SPEC PROTO-10).
 */
export async function checkReportPaths(values: Values, inputs: readonly string[] = []): Promise<void> {
  const targets = await reportTargets(values);
  if (Object.keys(targets).length === 0) return;
  const { checkReportTargets } = await import('../report/index.js');
  // What the command reads is never a report's place: the baseline it compares with, the files it replays.
  const read = [...inputs, ...(typeof values['baseline'] === 'string' ? [values['baseline']] : [])];
  await refusingTargets(async () => checkReportTargets(targets, { inputs: read }));
}

/** The writers' ReportTargetError (two formats given one file, or a format no entry registers) as the usage error it is. */
export async function refusingTargets<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    // Loaded only here: a command that writes no report never loads the writers.
    const { ReportTargetError } = await import('../report/index.js');
    if (e instanceof ReportTargetError) throw new UsageError(`cannot write the reports: ${e.message}`);
    throw e;
  }
}

/**
 * Write the reports the command line names (none named, nothing is loaded): the paths written,
 * and each that could not be (named, with the reason) once every other one is written. Two
 * formats given one file, or a format no entry registers, is a usage error.
 */
export async function writeReportFiles(report: Report, values: Values): Promise<WriteOutcome> {
  const targets = await reportTargets(values);
  return refusingTargets(() => writeNamedReports(report, targets));
}

/** Every report asked for: `wrote FILE` for each written, an error line for each that could not be; whether all were. */
export async function writeAll(report: Report, values: Values, who = 'ctxconform'): Promise<boolean> {
  return printWritten(await writeReportFiles(report, values), who);
}

/** `wrote FILE` for each report written, an error line for each that could not be; whether all were. */
export function printWritten({ written, failed }: WriteOutcome, who = 'ctxconform'): boolean {
  for (const f of written) out(`wrote ${f}`);
  for (const f of failed) err(`${who}: ${f.message}`);
  return failed.length === 0;
}
