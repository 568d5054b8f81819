/**
 * `ctxconform run`: the golden cases and the properties against one
 * implementation. Exit 0 when nothing unexpected failed, 1 when something did
 * (or a baseline entry went stale), 2 for a usage error or an implementation
 * that cannot start.
 */
import { parseArgs } from 'node:util';
import { DECLARED_PROFILE, stripAnsi } from '../../report/text.js';
import { checkedFilter, FilterError } from '../cases/filter.js';
import { BUNDLED_CASES_DIR, formatProblem, loadCorpus } from '../cases/load.js';
import { formatFailure, implementationLine, progress, shellQuote, summaryTable } from '../runner/console.js';
import { parseShard } from '../runner/filter.js';
import { REPORT_FILE_OPTIONS, writeReportFiles } from '../runner/reports.js';
import { IMPLEMENTATION_OPTIONS, implementationOptionsFrom, openImplementation } from '../runner/open.js';
import type { ImplementationOptions, OpenedImplementation } from '../runner/open.js';
import { runSuite } from '../runner/run.js';
import { MEMORY_API_HELP, MEMORY_API_OPTIONS, addContractResults, clauseTable, contractGateFor, openMemoryApiTarget } from '../contract/cli.js';
import { specVersionProblem } from '../spec-version.js';
import { propertyAndClauseIds } from '../selectable-ids.js';
import { FAILING } from '../../protocol/types.js';
import type { AdapterName, CaseResult, Report } from '../../protocol/types.js';
import type { GoldenCase } from '../types.js';
import { SPEC_VERSION } from '../version.js';
import { EXIT_FAIL, EXIT_OK, UsageError } from './main.js';

export const usage = 'ctxconform run [--impl reference | --module PATH | --stdio "COMMAND" | --http URL | --memory-api URL] [options]';

const HELP = `usage: ${usage}

implementation (one; default --impl reference):
  --impl reference        the built-in reference assembler
  --module PATH           an ES module exporting assemble(request) [and describe()]
  --stdio "COMMAND"       a process speaking JSON lines on stdin/stdout (SPEC PROTO-3)
  --http URL              a server answering POST URL/assemble, GET URL/describe
  --manifest FILE         the manifest, when the implementation cannot describe itself

${MEMORY_API_HELP}

what to run:
  --cases DIR             golden cases (default: the bundled corpus; "none" for none)
  --filter EXPR           which cases, as a comma-separated list of any of:
                            'expiry/*'      case ids (* within a segment, ** across)
                            'tag:boundary'  cases with that tag
                            'req:TIER-4'    cases citing that requirement;
                            'req:CON-'      ... any of that section
                            'area:ranked'   the first id segment ('area:property')
                          '!' excludes, '+' joins atoms that must all hold:
                            'area:tiers,!tag:rounding'  'req:EXP-+tag:boundary'
  --spec vN               only the cases that hold in spec version vN (since <= vN;
                          default: every case, up to this kit's ${SPEC_VERSION})
  --repeat N              send every case N times and replay every property's seed N
                          times (with --memory-api, run the contract N times); answers
                          that differ make the case flaky (REQ-2), which fails the run
                          like fail (default 1)
  --properties N          runs per property (default 100; 0 disables)
  --seed N                property seed (default 1)
  --shard I/N             run the I-th of N slices (properties run in shard 1)
  --timeout MS            per case (default 5000)
  --concurrency N         cases in flight (default 1 in process, 4 over stdio and http)
  --processes N           stdio: copies of the command to spread them over, started as
                          needed (default: the concurrency; 1 pipelines every request
                          into one process)

reports:
  --json FILE  --junit FILE  --markdown FILE  --html FILE  --badge FILE
  --baseline FILE         known failures: only new ones fail the run, and so does an
                          entry that now passes (remove it: a baseline only shrinks);
                          ctxconform baseline REPORT.json --write FILE makes one
  --save-counterexamples DIR   write each shrunk property counterexample as a case file

exit status: 0 nothing unexpected failed, 1 a case or property failed, erred, timed out,
crashed or was flaky, 2 usage error or an implementation that cannot be started.`;

/** Options of this command; kept in one object so another target (e.g. --memory-api) is one more entry. */
const RUN_OPTIONS = {
  ...IMPLEMENTATION_OPTIONS,
  ...MEMORY_API_OPTIONS,
  cases: { type: 'string' },
  filter: { type: 'string' },
  spec: { type: 'string' },
  repeat: { type: 'string' },
  properties: { type: 'string' },
  seed: { type: 'string' },
  concurrency: { type: 'string' },
  processes: { type: 'string' },
  json: { type: 'string' },
  ...REPORT_FILE_OPTIONS,
  baseline: { type: 'string' },
  shard: { type: 'string' },
  'save-counterexamples': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof RUN_OPTIONS }>>['values'];

export function intOption(values: Record<string, unknown>, name: string, fallback: number, min: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw.trim())) throw new UsageError(`--${name} needs an integer, not ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, not ${raw}`);
  return n;
}

/** The command that reruns one case (or property) against the same implementation. */
function rerunCommand(values: Values, id: string, seed: number): string {
  const parts = ['npx', 'ctxconform', 'run'];
  for (const k of ['module', 'stdio', 'http', 'manifest'] as const) {
    const v = values[k];
    if (typeof v === 'string') parts.push(`--${k}`, shellQuote(v));
  }
  if (typeof values.timeout === 'string') parts.push('--timeout', values.timeout);
  // A flaky case shows only when repeated.
  if (typeof values.repeat === 'string' && values.repeat.trim() !== '1') parts.push('--repeat', shellQuote(values.repeat));
  if (id.startsWith('property/')) {
    parts.push('--cases', 'none', '--filter', shellQuote(id), '--seed', String(seed));
    if (typeof values.properties === 'string') parts.push('--properties', values.properties);
  } else {
    if (typeof values.cases === 'string' && values.cases !== 'none') parts.push('--cases', shellQuote(values.cases));
    parts.push('--filter', shellQuote(id), '--properties', '0');
  }
  return parts.join(' ');
}

function loadCases(dir: string | undefined): GoldenCase[] {
  if (dir === 'none') return [];
  let corpus;
  try {
    corpus = loadCorpus(dir ?? BUNDLED_CASES_DIR);
  } catch (e) {
    throw new UsageError(`cannot read the cases in ${dir ?? BUNDLED_CASES_DIR}: ${(e as Error).message}`);
  }
  if (corpus.problems.length > 0) {
    const shown = corpus.problems.slice(0, 20).map(formatProblem);
    const more = corpus.problems.length > 20 ? `\n(and ${corpus.problems.length - 20} more)` : '';
    throw new UsageError(`the cases have problems (fix them or run ctxconform validate):\n${shown.join('\n')}${more}`);
  }
  return corpus.cases;
}

/** A filter naming a tag, requirement or area nothing has, or an id glob no id matches, would select (or exclude) nothing in silence: a usage error. */
function checkFilter(expr: string, cases: readonly GoldenCase[]): void {
  try {
    checkedFilter(expr, cases, propertyAndClauseIds());
  } catch (e) {
    if (e instanceof FilterError) throw new UsageError(`--filter ${e.message}`);
    throw e;
  }
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

async function writeAll(report: Report, values: Values): Promise<string[]> {
  try {
    return await writeReportFiles(report, { json: values.json, junit: values.junit, markdown: values.markdown, html: values.html, badge: values.badge });
  } catch (e) {
    throw new UsageError(`cannot write the reports: ${(e as Error).message}`);
  }
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: RUN_OPTIONS, allowPositionals: false });
  if (values.help) {
    console.log(HELP);
    return EXIT_OK;
  }
  const timeoutMs = intOption(values, 'timeout', 5000, 1);
  const properties = intOption(values, 'properties', 100, 0);
  const seed = intOption(values, 'seed', 1, -(2 ** 31));
  let shard: { index: number; total: number } | undefined;
  if (values.shard !== undefined) {
    shard = parseShard(values.shard);
    if (!shard) throw new UsageError(`--shard needs I/N with 1 <= I <= N, e.g. 1/4, not ${JSON.stringify(values.shard)}`);
  }
  const repeat = intOption(values, 'repeat', 1, 1);
  if (values.spec !== undefined) {
    const problem = specVersionProblem(values.spec);
    if (problem) throw new UsageError(`--spec: ${problem}`);
  }
  const cases = loadCases(values.cases);
  if (values.filter !== undefined) checkFilter(values.filter, cases);
  if (values.baseline !== undefined) {
    // Read before the run: a bad baseline is a usage error, not a finding after minutes of cases.
    const { loadBaseline } = await import('../baseline.js');
    try {
      loadBaseline(values.baseline);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const implOptions: ImplementationOptions = implementationOptionsFrom(values, timeoutMs);
  // --module is in process too: its worker answers one request at a time.
  const inProcess = implOptions.stdio === undefined && implOptions.http === undefined;
  const concurrency = intOption(values, 'concurrency', inProcess ? 1 : 4, 1);
  implOptions.concurrency = concurrency;
  if (values.processes !== undefined) {
    if (implOptions.stdio === undefined) throw new UsageError('--processes goes with --stdio');
    implOptions.processes = intOption(values, 'processes', concurrency, 1);
  }

  // A memory service is judged on its contract (SPEC section 16): its golden cases skip, and --properties counts its random requests.
  const memoryApi = openMemoryApiTarget(values, timeoutMs);
  const opened: Omit<OpenedImplementation, 'adapter'> & { adapter: AdapterName } = memoryApi ?? (await openImplementation(implOptions));
  const interactive = Boolean(process.stderr.isTTY) && process.env.CI !== 'true' && !values.quiet;
  const bar = values.quiet ? undefined : progress(process.stderr, interactive);
  let report: Report;
  try {
    report = await runSuite({
      cases,
      impl: opened.impl,
      manifest: opened.manifest,
      timeoutMs,
      concurrency,
      properties: memoryApi ? 0 : properties,
      seed,
      ...(values.filter !== undefined ? { filter: values.filter } : {}),
      ...(values.spec !== undefined ? { spec: values.spec } : {}),
      ...(repeat > 1 ? { repeat } : {}),
      ...(shard ? { shard } : {}),
      ...(values['save-counterexamples'] !== undefined ? { saveCounterexamples: values['save-counterexamples'] } : {}),
      ...(bar ? { onProgress: (d: number, t: number, c: string) => bar.update(d, t, c) } : {}),
      rerun: (id) => rerunCommand(values, id, seed),
      adapter: opened.adapter,
      target: opened.target,
    });
  } finally {
    bar?.end();
    await opened.impl.close();
  }
  if (memoryApi) {
    report = await addContractResults(report, memoryApi, { timeoutMs, runs: properties, seed, ...(values.filter !== undefined ? { filter: values.filter } : {}), ...(shard ? { shard } : {}), ...(repeat > 1 ? { repeat } : {}) });
  }

  let unexpected: CaseResult[] = report.cases.filter((c) => FAILING.has(c.status));
  let stale: string[] = [];
  if (values.baseline !== undefined) {
    const { applyBaseline } = await import('../baseline.js');
    const applied = applyBaseline(report, values.baseline);
    report = applied.report;
    unexpected = applied.unexpected;
    stale = applied.stale;
  }

  console.log(implementationLine(report, opened.adapter, opened.target));
  const unexpectedIds = new Set(unexpected.map((c) => c.id));
  const byDesign = new Set(report.baseline?.by_design ?? []);
  const known = report.cases.filter((c) => FAILING.has(c.status) && !unexpectedIds.has(c.id) && !byDesign.has(c.id));
  for (const c of unexpected) console.log(`\n${formatFailure(c)}`);
  if (known.length > 0) console.log(`\n${known.length} known failure${known.length > 1 ? 's' : ''} from the baseline: ${known.map((c) => c.id).join(', ')}`);
  if (byDesign.size > 0) console.log(`${byDesignLines(report).join('\n')}`);
  if (stale.length > 0) console.log(`baseline entries that now pass (remove them): ${stale.join(', ')}`);
  if (memoryApi && clauseTable(report)) console.log(`\n${clauseTable(report)}`);
  console.log(`\n${summaryTable(report)}`);
  for (const file of await writeAll(report, values)) console.log(`wrote ${file}`);
  const s = report.summary;
  // Every result a skip (or none at all): nothing was put to the test, which a gate must not read as a pass,
  // as vitest and pytest fail a run that collected no test. A shard may be empty by the luck of the split.
  const untested = s.total === s.skip && !shard;
  // Contract clauses no exchange tested are named on the closing line; --require-tested makes them fail the run.
  const gate = memoryApi ? contractGateFor(report, memoryApi, shard) : undefined;
  // A baseline only shrinks: an entry that now passes fails the run until it is removed.
  const ok = unexpected.length === 0 && stale.length === 0 && !untested && !gate?.why;
  const why = ok
    ? 'OK'
    : gate?.why && unexpected.length === 0 && stale.length === 0
      ? gate.why
      : untested
      ? `NOTHING TESTED (${s.total === 0 ? 'nothing was selected' : `all ${s.total} selected were skipped: ${topReasons(report.cases)}`})`
      : unexpected.length === 0
        ? `FAILED (${stale.length} stale baseline entr${stale.length > 1 ? 'ies' : 'y'})`
        : 'FAILED';
  console.log(
    `\n${why}${report.run?.constants ? ` (${DECLARED_PROFILE})` : ''}: ${s.pass} pass, ${s.fail} fail, ${s.error} error, ${s.timeout} timeout, ${s.crash} crash, ${repeat > 1 || s.flaky > 0 ? `${s.flaky} flaky, ` : ''}${s.skip} skip of ${s.total} in ${((report.run?.duration_ms ?? 0) / 1000).toFixed(2)} s${gate?.suffix ?? ''}`,
  );
  return ok ? EXIT_OK : EXIT_FAIL;
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
