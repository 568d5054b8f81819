/**
 * What `replay` and `sweep` share on the command line: the implementation and
 * report options of `run`, recorded files named `FILE` or `FILE:LINE`, and
 * the ending (failures, summary, reports, the last line, the exit status).
 */
import { existsSync, statSync } from 'node:fs';
import { UsageError } from '../conformance/usage.js';
import { intOption } from '../conformance/usage.js';
import { formatFailure, implementationLine, shellQuote, summaryTable } from '../conformance/runner/console.js';
import { IMPLEMENTATION_OPTIONS, implementationOptionsFrom, openImplementation } from '../conformance/runner/open.js';
import type { OpenedImplementation } from '../conformance/runner/open.js';
import { REPORT_FILE_OPTIONS, writeReportFiles } from '../conformance/runner/reports.js';
import { FAILING } from '../protocol/types.js';
import type { Report } from '../protocol/types.js';
import type { ReplaySource } from '../conformance/replay/run.js';

export const IMPLEMENTATION_HELP = `implementation (one; default --impl reference):
  --impl reference        the built-in reference assembler
  --module PATH           an ES module exporting assemble(request) [and describe()]
  --stdio "COMMAND"       a process speaking JSON lines on stdin/stdout (SPEC PROTO-3)
  --http URL              a server answering POST URL/assemble, GET URL/describe
  --manifest FILE         the manifest, when the implementation cannot describe itself
  --timeout MS            per request (default 5000)
  --concurrency N         requests in flight (default 1 in process, 4 over stdio and http)`;

export const REPORTS_HELP = `reports:
  --json FILE  --junit FILE  --markdown FILE  --html FILE  --badge FILE
  --save-counterexamples DIR   write each shrunk request as a ready case file
  --quiet                 no progress line`;

export const SHARED_OPTIONS = {
  ...IMPLEMENTATION_OPTIONS,
  concurrency: { type: 'string' },
  json: { type: 'string' },
  ...REPORT_FILE_OPTIONS,
  'save-counterexamples': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = Record<string, string | boolean | undefined>;

export interface Opened extends OpenedImplementation {
  timeoutMs: number;
  concurrency: number;
}

export async function openFrom(values: Values): Promise<Opened> {
  const timeoutMs = intOption(values, 'timeout', 5000, 1);
  const options = implementationOptionsFrom(values as Parameters<typeof implementationOptionsFrom>[0], timeoutMs);
  const inProcess = options.stdio === undefined && options.http === undefined;
  const concurrency = intOption(values, 'concurrency', inProcess ? 1 : 4, 1);
  options.concurrency = concurrency;
  return { ...(await openImplementation(options)), timeoutMs, concurrency };
}

/** The implementation flags as given, for a rerun command. */
export function implementationFlags(values: Values): string[] {
  const parts: string[] = [];
  for (const k of ['module', 'stdio', 'http', 'manifest', 'timeout'] as const) {
    const v = values[k];
    if (typeof v === 'string') parts.push(`--${k}`, shellQuote(v));
  }
  return parts;
}

/** `FILE`, `-` (stdin) or `FILE:LINE` (one request of FILE); a file that is not there is a usage error. */
export function recordedSource(arg: string): ReplaySource {
  if (arg === '-') return { path: '-', label: 'stdin' };
  const file = (path: string): ReplaySource | undefined => {
    if (!existsSync(path)) return undefined;
    const st = statSync(path);
    if (!st.isFile()) throw new UsageError(`${path} is not a file`);
    return { path, label: path.split('\\').join('/'), size: st.size };
  };
  const whole = file(arg);
  if (whole) return whole;
  const m = /^(.*):([1-9]\d*)$/.exec(arg);
  const part = m ? file(m[1]!) : undefined;
  if (part) return { ...part, line: Number(m![2]) };
  throw new UsageError(`cannot read ${arg}: no such file`);
}

/** Failures printed in full on the terminal; the reports hold them all. */
const PRINTED_FAILURES = 20;

/** Prints the failures, the summary and the reports written; the exit status (0 or 1). */
export async function finish(report: Report, values: Values, opened: Opened, what: string): Promise<number> {
  console.log(implementationLine(report, opened.adapter, opened.target));
  const failing = report.cases.filter((c) => FAILING.has(c.status));
  for (const c of failing.slice(0, PRINTED_FAILURES)) console.log(`\n${formatFailure(c)}`);
  const s = report.summary;
  const bad = s.fail + s.error + s.timeout + s.crash;
  if (bad > PRINTED_FAILURES) console.log(`\n… and ${bad - PRINTED_FAILURES} more not passing: see the reports`);
  console.log(`\n${summaryTable(report)}`);
  let written: string[];
  try {
    written = await writeReportFiles(report, { json: values.json as string | undefined, junit: values.junit as string | undefined, markdown: values.markdown as string | undefined, html: values.html as string | undefined, badge: values.badge as string | undefined });
  } catch (e) {
    throw new UsageError(`cannot write the reports: ${(e as Error).message}`);
  }
  for (const file of written) console.log(`wrote ${file}`);
  console.log(`\n${bad === 0 ? 'OK' : 'FAILED'}: ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.timeout} timeout, ${s.crash} crash, ${s.skip} skip of ${s.total} ${what}`);
  return bad === 0 ? 0 : 1;
}
