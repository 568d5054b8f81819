/**
 * `ctxconform contract --memory-api URL`: a memory service judged on the
 * memory-api contract (SPEC section 16): one result per clause. Exit 0 when
 * no clause failed, 1 when one did (or one --require-tested names was not
 * tested), 2 for a usage error. `ctxconform run --memory-api URL` stays the
 * same run with the golden cases, which a service skips, in its report
 * (contractAlias, below, is run's ending for it).
 */
import { checkReportPaths } from './report-options.js';
import { parseArgs } from 'node:util';
import type { ProgressSink } from '../running/console.js';
import { shellQuote } from '../running/console.js';
import type { OpenedImplementation } from '../running/open.js';
import { runSuite } from '../running/run.js';
import { ObservationLog } from '../diagnosis/log.js';
import { addContractResults, contractClauseCount, contractReport, judgeContract } from '../running/contract-run.js';
import type { ServiceConfig } from '../running/contract-run.js';
import { contractGate, parseRequireTested, requireTestedResults } from '../contract/verdict.js';
import type { RequireTested } from '../contract/verdict.js';
import type { GoldenCase } from '../vocabulary/types.js';
import type { Report } from '../protocol/types.js';
import { reportsHelp, checkBaseline, finish, judgingOptions, progressFor, stopSignal, withImplementation } from './drive.js';
import type { Values } from './drive.js';
import { checkFilterOption } from './filter-option.js';
import { chooseImplementation, implementationFlags, loadImplementationOptions, rerunCommand, transportHelp, transportUsage } from './implementation.js';
import type { ChosenImplementation } from './implementation.js';
import { EXIT_OK, intOption, randomRuns } from './usage.js';
import { out } from './output.js';

export const usage = (): string => `ctxconform contract ${transportUsage(['service'])} [options]`;

const HELP = (): string => `usage: ${usage()}

Judges a memory service on the memory-api contract (SPEC section 16, docs/memory-api.md):
the directed scenarios, then --properties N random requests, each in a fresh scope and
each answer checked clause by clause; one result per clause, contract/<name>. A clause
that no exchange put to the test is skipped, and the closing line names it.
ctxconform run --memory-api URL is the same run, with the golden cases (which a service
skips) in its report.

${transportHelp(['service'], ['timeout'])}

what to run:
  --filter EXPR           which clauses, as run --filter takes them: 'contract/schema',
                          'req:MAPI-3', '!contract/deterministic'
  --properties N          random requests after the directed ones (default 100; 0 none)
  --seed N                their seed (default 1)
  --repeat N              run the whole contract N times, each in scopes of its own; a
                          clause judged differently is flaky (REQ-2), which fails the run
                          like fail (default 1)

${reportsHelp({ saveCounterexamples: false })}

exit status: 0 no clause failed, 1 a clause failed, erred, timed out, crashed or was flaky,
or one --require-tested names was not tested, or every clause was skipped (nothing tested),
2 usage error.`;

/** The contract's own run: what both the command and run's alias give it. */
interface ContractRun {
  runs: number;
  seed: number;
  filter?: string;
  repeat: number;
  /** The `--require-tested` clauses, read. */
  required?: RequireTested;
  bar?: ProgressSink;
  /** The command a failing clause is rerun with, and the flags that reach the service again. */
  command: 'contract' | 'run';
  flags: readonly string[];
}

/** The service's config as its transport holds it (every transport of kind `service` has one). */
const serviceOf = (opened: OpenedImplementation): ServiceConfig => opened.config as ServiceConfig;

/** `--require-tested` as the config gives it (the entry checked it when the options were read). */
function requiredOf(chosen: ChosenImplementation): RequireTested | undefined {
  const value = (chosen.config as Partial<ServiceConfig>).requireTested;
  if (value === undefined) return undefined;
  const r = parseRequireTested(value);
  return 'required' in r ? r.required : undefined;
}

/** The rest of the command that reruns one clause: the filter, the random requests, the seed, the timeout, the rounds. */
function clauseRerun(c: ContractRun, timeoutMs: number): (id: string) => string {
  return (id) =>
    rerunCommand(c.command, c.flags, [
      ...(c.command === 'run' ? ['--cases', 'none'] : []),
      '--filter',
      shellQuote(id),
      '--properties',
      String(c.runs),
      '--seed',
      String(c.seed),
      '--timeout',
      String(timeoutMs),
      ...(c.repeat > 1 ? ['--repeat', String(c.repeat)] : []),
    ]);
}

/** The contract's results in `report` (made by `alone` when there is none yet), and the gate applied: the report and the closing line's suffix. */
async function judged(opened: OpenedImplementation, c: ContractRun, report: Report | undefined, clauses: number): Promise<{ report: Report; suffix: string }> {
  const total = report?.summary.total ?? 0;
  c.bar?.update(total, total + clauses, 'the memory-api contract');
  const started = new Date();
  const { results, durationMs } = await judgeContract({
    service: serviceOf(opened),
    timeoutMs: opened.timeoutMs,
    runs: c.runs,
    seed: c.seed,
    ...(c.filter !== undefined ? { filter: c.filter } : {}),
    ...(c.repeat > 1 ? { repeat: c.repeat } : {}),
    rerun: clauseRerun(c, opened.timeoutMs),
  });
  let out = report
    ? addContractResults(report, results, { runs: c.runs, durationMs })
    : contractReport({
        manifest: opened.manifest,
        adapter: opened.adapter,
        target: opened.target,
        started,
        durationMs,
        results,
        runs: c.runs,
        seed: c.seed,
        ...(c.filter !== undefined ? { filter: c.filter } : {}),
        repeat: c.repeat,
      });
  // Clauses no exchange tested are named on the closing line; those --require-tested names fail.
  const gate = contractGate(out, c.required);
  out = requireTestedResults(out, gate);
  c.bar?.update(out.summary.total, out.summary.total, '');
  return { report: out, suffix: gate.suffix };
}

const options = () => {
  const { 'save-counterexamples': _none, ...judging } = judgingOptions(['timeout']);
  return { ...judging, filter: { type: 'string' }, properties: { type: 'string' }, seed: { type: 'string' }, repeat: { type: 'string' } } as const;
};

export async function run(argv: string[]): Promise<number> {
  await loadImplementationOptions();
  const { values } = parseArgs({ args: argv, options: options(), allowPositionals: false });
  if (values.help) {
    out(HELP());
    return EXIT_OK;
  }
  const { runs, seed } = randomRuns(values);
  const repeat = intOption(values, 'repeat', 1, 1);
  const chosen = await chooseImplementation(values, ['service']);
  const filter = typeof values.filter === 'string' ? values.filter : undefined;
  if (filter !== undefined) await checkFilterOption(filter, [], { properties: false });
  await checkBaseline(values.baseline as string | undefined);
  await checkReportPaths(values);
  const required = requiredOf(chosen);
  const bar = progressFor(values as Values);
  const c: ContractRun = {
    runs,
    seed,
    ...(filter !== undefined ? { filter } : {}),
    repeat,
    ...(required ? { required } : {}),
    ...(bar ? { bar } : {}),
    command: 'contract',
    flags: implementationFlags(values, { timeout: false }),
  };
  return withImplementation(chosen, async (opened) => {
    let ended: { report: Report; suffix: string };
    try {
      ended = await judged(opened, c, undefined, await contractClauseCount(filter));
    } finally {
      c.bar?.end();
    }
    const seconds = ((ended.report.run?.duration_ms ?? 0) / 1000).toFixed(2);
    return (await finish(ended.report, values as Values, { opened, what: `in ${seconds} s`, repeat, suffix: ended.suffix })).status;
  });
}

/**
 * `ctxconform run --memory-api URL`, as it always ran: the golden cases
 * (every one skips: a service declares profile working-context-api), then the
 * contract in shard 1 (in the other shards, nothing), in one report; the
 * progress counts the clauses from the start, as the summary will.
 */
export async function contractAlias(
  values: Values,
  chosen: ChosenImplementation,
  o: {
    cases: GoldenCase[];
    runs: number;
    seed: number;
    filter?: string;
    spec?: string;
    repeat: number;
    shard?: { index: number; total: number };
    bar?: ProgressSink;
    caseRerun: (id: string) => string;
  },
): Promise<number> {
  const inFirstShard = !o.shard || o.shard.index === 1;
  const required = requiredOf(chosen);
  const c: ContractRun = {
    runs: o.runs,
    seed: o.seed,
    ...(o.filter !== undefined ? { filter: o.filter } : {}),
    repeat: o.repeat,
    // The contract runs in shard 1 only, so the other shards require nothing.
    ...(inFirstShard && required ? { required } : {}),
    ...(o.bar ? { bar: o.bar } : {}),
    command: 'run',
    flags: implementationFlags(values, { timeout: false }),
  };
  return withImplementation(chosen, async (opened) => {
    const clauses = inFirstShard ? await contractClauseCount(o.filter) : 0;
    const observations = new ObservationLog();
    let report: Report;
    let suffix = '';
    try {
      report = await runSuite({
        ...opened,
        cases: o.cases,
        properties: 0,
        seed: o.seed,
        ...(o.filter !== undefined ? { filter: o.filter } : {}),
        ...(o.spec !== undefined ? { spec: o.spec } : {}),
        ...(o.repeat > 1 ? { repeat: o.repeat } : {}),
        ...(o.shard ? { shard: o.shard } : {}),
        ...(typeof values['save-counterexamples'] === 'string' ? { saveCounterexamples: values['save-counterexamples'] } : {}),
        ...(o.bar ? { onProgress: (d: number, t: number, current: string) => o.bar!.update(d, t + clauses, current) } : {}),
        signal: stopSignal(),
        rerun: o.caseRerun,
        observations,
      });
      // Interrupted: the contract was not run, and is not in the report.
      if (!stopSignal().aborted) {
        if (inFirstShard) ({ report, suffix } = await judged(opened, c, report, clauses));
        else {
          c.bar?.update(report.summary.total, report.summary.total, 'the memory-api contract');
          c.bar?.update(report.summary.total, report.summary.total, '');
        }
      }
    } finally {
      c.bar?.end();
    }
    const seconds = ((report.run?.duration_ms ?? 0) / 1000).toFixed(2);
    return (await finish(report, values, { opened, what: `in ${seconds} s`, repeat: o.repeat, suffix, observations })).status;
  });
}
