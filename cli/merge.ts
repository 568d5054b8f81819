/**
 * `ctxconform merge A.json B.json ... -o ALL.json`: the reports of
 * `run --shard I/N` or `replay --shard I/N` joined into the report an
 * unsharded run would have given (same cases and totals; cases sorted by id,
 * replayed requests by file and line). A replay's totals are the shards'
 * summed (a replay report lists only some of the results it counts).
 */
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { readReport, ReportFileError } from '../judging/baseline.js';
import { byId, summarize } from '../protocol/types.js';
import type { CaseResult, ReplayInfo, Report, Summary } from '../protocol/types.js';
import { loadFormats } from '../report/registry.js';
import { REPORTS_DIR, reportOptions, reportOptionsHelp, writeReportFiles } from './report-options.js';
import { EXIT_USAGE, UsageError } from './usage.js';
import { err, out } from './output.js';
import { terminalValue } from '../report/terminal.js';

export const usage = 'ctxconform merge A.json B.json ... -o ALL.json [report options] [--allow-partial]';

/** Reports that cannot be one run's shards; the message says which file differs and how. */
export class MergeError extends Error {}

export interface MergeInput {
  file: string;
  report: Report;
}

const describeImpl = (r: Report): string =>
  terminalValue(
    `${r.implementation.name} ${r.implementation.version} [profiles ${r.implementation.profiles.join(',')}; capabilities ${r.implementation.capabilities.join(',')}]`,
  );

/**
 * Join shard reports. Refuses reports of different implementations, kit
 * versions, seeds or filters, duplicate case ids, and (unless allowPartial)
 * a set of shards that is not exactly 1..N of one N.
 */
export function mergeReports(inputs: readonly MergeInput[], options: { allowPartial?: boolean } = {}): Report {
  if (inputs.length === 0) throw new MergeError('no reports to merge');
  const first = inputs[0]!;
  const base = first.report;
  // Even alone (--allow-partial): merged, a sweep would lose what makes it one.
  const sweep = inputs.find((i) => i.report.sweep !== undefined);
  if (sweep) throw new MergeError(`${sweep.file} is a sweep: a sweep is one result, and has no shards to merge`);
  for (const { file, report } of inputs.slice(1)) {
    if ((report.replay === undefined) !== (base.replay === undefined)) {
      throw new MergeError(
        `${file} is ${report.replay ? 'a replay' : 'not a replay'}, ${first.file} ${base.replay ? 'a replay' : 'not a replay'}: merge the shards of one command`,
      );
    }
    if (report.replay && base.replay && report.replay.sent_twice !== base.replay.sent_twice) {
      throw new MergeError(
        `${file} has replay.sent_twice ${report.replay.sent_twice}, ${first.file} ${base.replay.sent_twice}: shards of one replay share --once`,
      );
    }
    if (!isDeepStrictEqual(report.kit, base.kit)) {
      throw new MergeError(
        `${file} was made by ${terminalValue(`${report.kit.name} ${report.kit.version} (spec ${report.kit.spec})`)}, ` +
          `${first.file} by ${terminalValue(`${base.kit.name} ${base.kit.version} (spec ${base.kit.spec})`)}: merge reports of one kit version`,
      );
    }
    const a = report.implementation;
    const b = base.implementation;
    if (
      a.name !== b.name ||
      a.version !== b.version ||
      !isDeepStrictEqual([...a.profiles].sort(), [...b.profiles].sort()) ||
      !isDeepStrictEqual([...a.capabilities].sort(), [...b.capabilities].sort())
    ) {
      throw new MergeError(`${file} is a run of ${describeImpl(report)}, ${first.file} of ${describeImpl(base)}: merge reports of one implementation`);
    }
    for (const key of ['seed', 'filter', 'adapter', 'target', 'spec', 'repeat'] as const) {
      const x = report.run?.[key] ?? null;
      const y = base.run?.[key] ?? null;
      if (x !== y) throw new MergeError(`${file} has run.${key} ${JSON.stringify(x)}, ${first.file} ${JSON.stringify(y)}: shards of one run share it`);
    }
    // Judged with other constants (SPEC section 17), a shard's verdicts are not the run's.
    if (!isDeepStrictEqual(report.run?.constants ?? null, base.run?.constants ?? null)) {
      throw new MergeError(
        `${file} has run.constants ${JSON.stringify(report.run?.constants ?? null)}, ${first.file} ${JSON.stringify(base.run?.constants ?? null)}: shards of one run share it`,
      );
    }
  }
  const seen = new Map<string, string>();
  const cases: CaseResult[] = [];
  for (const { file, report } of inputs) {
    for (const c of report.cases) {
      const other = seen.get(c.id);
      if (other !== undefined) throw new MergeError(`case ${terminalValue(c.id)} is in both ${other} and ${file}: a case belongs to one shard`);
      seen.set(c.id, file);
      cases.push(c);
    }
  }
  const shards = inputs.map((i) => ({ file: i.file, shard: i.report.run?.shard ?? null }));
  if (!options.allowPartial) checkShards(shards);
  const replay = base.replay
    ? mergeReplayInfo(
        inputs.map((i) => i.report.replay!),
        cases.length,
      )
    : undefined;
  if (replay)
    sortReplayed(
      cases,
      replay.files.map((f) => f.file),
    );
  else cases.sort(byId);
  const starts = inputs
    .map((i) => i.report.run?.started_at)
    .filter((s): s is string => typeof s === 'string')
    .sort();
  const durations = inputs.map((i) => i.report.run?.duration_ms).filter((d): d is number => typeof d === 'number');
  const run: NonNullable<Report['run']> = { ...base.run, shard: null };
  run.properties_runs = Math.max(0, ...inputs.map((i) => i.report.run?.properties_runs ?? 0));
  if (starts.length > 0) run.started_at = starts[0]!;
  // The shards' summed time: what the run cost, not how long the parallel run took.
  if (durations.length > 0) run.duration_ms = durations.reduce((x, y) => x + y, 0);
  // A shard ended by a signal leaves the whole run unjudged where it stopped.
  const interrupted = inputs.map((i) => i.report.run?.interrupted).find((x) => x !== undefined);
  if (interrupted) run.interrupted = interrupted;
  else delete run.interrupted;
  const summary = replay ? sumSummaries(inputs.map((i) => i.report.summary)) : summarize(cases);
  if (replay && durations.length > 0) replay.rate_per_s = run.duration_ms! > 0 ? Math.round((replay.requests / run.duration_ms!) * 1000 * 10) / 10 : 0;
  // No `diagnosis`: each shard's read only its own answers, which a report does not keep, so none can be made for the whole (docs/diagnosis.md).
  const merged: Report = { kit: base.kit, implementation: base.implementation, run, summary, cases, ...(replay ? { replay } : {}) };
  return merged;
}

function sumSummaries(summaries: readonly Summary[]): Summary {
  const out = summarize([]);
  for (const s of summaries) for (const k of Object.keys(out) as (keyof Summary)[]) out[k] += s[k] ?? 0;
  return out;
}

/** The shards' files, each with its requests and unreadable lines summed, in the order the shards name them. */
function mergeReplayInfo(infos: readonly ReplayInfo[], listed: number): ReplayInfo {
  const files = new Map<string, ReplayInfo['files'][number]>();
  for (const info of infos) {
    for (const f of info.files) {
      const have = files.get(f.file);
      if (have) {
        have.requests += f.requests;
        have.unreadable += f.unreadable;
      } else files.set(f.file, { ...f });
    }
  }
  const sum = (k: 'requests' | 'unreadable' | 'unlisted' | 'shrunk'): number => infos.reduce((n, i) => n + i[k], 0);
  // rate_per_s is set from the summed duration by the caller: requests per second of machine time.
  return {
    files: [...files.values()],
    requests: sum('requests'),
    unreadable: sum('unreadable'),
    rate_per_s: 0,
    sent_twice: infos[0]!.sent_twice,
    listed,
    unlisted: sum('unlisted'),
    shrunk: sum('shrunk'),
  };
}

/** `replay/FILE:LINE` results in file order, then by line. */
function sortReplayed(cases: CaseResult[], files: readonly string[]): void {
  const where = (id: string): [number, number] => {
    const m = /^replay\/(.*):(\d+)$/.exec(id);
    return m ? [files.indexOf(m[1]!), Number(m[2])] : [files.length, 0];
  };
  cases.sort((a, b) => {
    const [fa, la] = where(a.id);
    const [fb, lb] = where(b.id);
    return fa - fb || la - lb;
  });
}

function checkShards(shards: ReadonlyArray<{ file: string; shard: string | null }>): void {
  const unsharded = shards.find((s) => s.shard === null);
  if (unsharded) throw new MergeError(`${unsharded.file} is not a shard (run.shard is not set); give --allow-partial to merge anyway`);
  const parsed = shards.map((s) => {
    const [i, n] = s.shard!.split('/').map(Number) as [number, number];
    return { ...s, i, n };
  });
  const n = parsed[0]!.n;
  const odd = parsed.find((p) => p.n !== n);
  if (odd) throw new MergeError(`${odd.file} is shard ${odd.shard}, ${parsed[0]!.file} is shard ${parsed[0]!.shard}: the shards of one run share N`);
  const have = new Map<number, string>();
  for (const p of parsed) {
    const dup = have.get(p.i);
    if (dup) throw new MergeError(`${p.file} and ${dup} are both shard ${p.shard}`);
    have.set(p.i, p.file);
  }
  const missing = Array.from({ length: n }, (_, k) => k + 1).filter((k) => !have.has(k));
  if (missing.length > 0)
    throw new MergeError(`missing shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${n}`).join(', ')}; give --allow-partial to merge anyway`);
}

export async function run(argv: string[]): Promise<number> {
  await loadFormats();
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      ...reportOptions(),
      'allow-partial': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    out(
      `usage: ${usage}\n\nJoins the JSON reports of \`run --shard I/N\` or \`replay --shard I/N\` into one report with the totals of an unsharded run.\n` +
        `Refuses reports of different implementations, kit versions or commands, duplicate case ids,\n` +
        `and (without --allow-partial) an incomplete set of shards.\n\n  -o FILE                 the merged JSON report (as --json FILE)\nreport options:\n${reportOptionsHelp()}`,
    );
    return 0;
  }
  // The format options are the registry's: not in the parsed type.
  const asked = values as Record<string, string | boolean | undefined>;
  const json = typeof asked['json'] === 'string' ? asked['json'] : undefined;
  if (values.out !== undefined && json !== undefined && values.out !== json)
    throw new UsageError(`-o and --json both name the merged JSON report: give one\nusage: ${usage}`);
  const jsonOut = values.out ?? json;
  if (jsonOut === undefined && asked[REPORTS_DIR] === undefined) throw new UsageError(`-o FILE is required\nusage: ${usage}`);
  if (positionals.length === 0) throw new UsageError(`no reports given\nusage: ${usage}`);
  let merged: Report;
  let inputsHadDiagnosis = false;
  try {
    const inputs = positionals.map((file) => ({ file, report: readReport(file) }));
    inputsHadDiagnosis = inputs.some((i) => i.report.diagnosis !== undefined);
    merged = mergeReports(inputs, { allowPartial: values['allow-partial'] ?? false });
  } catch (e) {
    if (e instanceof ReportFileError || e instanceof MergeError) throw new UsageError(e.message);
    throw e;
  }
  const { written, failed } = await writeReportFiles(merged, { ...asked, ...(jsonOut !== undefined ? { json: jsonOut } : {}) });
  const s = merged.summary;
  out(
    `merged ${positionals.length} reports: ${s.total} ${merged.replay ? 'requests' : 'cases'}, ${s.pass} pass, ` +
      `${s.fail} fail, ${s.error} error, ${s.timeout} timeout, ${s.crash} crash, ${s.flaky > 0 ? `${s.flaky} flaky, ` : ''}${s.skip} skip`,
  );
  if (written.length > 0) out(`wrote ${written.join(', ')}`);
  for (const f of failed) err(`ctxconform merge: ${f.message}`);
  if (inputsHadDiagnosis) out("the shards' likely causes are not merged: each read only its own answers (an unsharded run diagnoses the whole)");
  return failed.length > 0 ? EXIT_USAGE : 0;
}
