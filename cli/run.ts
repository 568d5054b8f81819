/**
 * `ctxconform run`: the golden cases and the properties against one
 * implementation. Exit 0 when nothing unexpected failed, 1 when something did
 * (or a baseline entry went stale), 2 for a usage error or an implementation
 * that cannot start.
 */
import { kitCommand } from './invocation.js';
import { checkReportPaths } from './report-options.js';
import { parseArgs } from 'node:util';
import { BUNDLED_CASES_DIR, formatProblem, loadCorpus } from '../judging/cases/load.js';
import type { Corpus } from '../judging/cases/load.js';
import { shellQuote } from '../running/console.js';
import { parseShard } from '../running/filter.js';
import { runSuite } from '../running/run.js';
import { ObservationLog } from '../diagnosis/log.js';
import { SPEC_VERSION, specVersionProblem } from '../vocabulary/spec.js';
import type { GoldenCase } from '../vocabulary/types.js';
import type { Report } from '../protocol/types.js';
import { EXIT_OK, UsageError, intOption, randomRuns } from './usage.js';
import { chooseImplementation, implementationFlags, loadImplementationOptions, rerunCommand, transportUsage } from './implementation.js';
import { reportsHelp, checkBaseline, finish, implementationHelp, judgingOptions, progressFor, stopSignal, withImplementation } from './drive.js';
import type { Values } from './drive.js';
import { checkFilterOption } from './filter-option.js';
import { out } from './output.js';

export const usage = (): string => `ctxconform run [${transportUsage(['assembler', 'service'])}] [options]`;

const HELP = (): string => `usage: ${usage()}

${implementationHelp(['assembler', 'service'])}

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

${reportsHelp()}

exit status: 0 nothing unexpected failed, 1 a case or property failed, erred, timed out,
crashed or was flaky, 2 usage error or an implementation that cannot be started.`;

const options = () =>
  ({
    ...judgingOptions(),
    cases: { type: 'string' },
    filter: { type: 'string' },
    spec: { type: 'string' },
    repeat: { type: 'string' },
    properties: { type: 'string' },
    seed: { type: 'string' },
    shard: { type: 'string' },
  }) as const;

/** The rest of the command that reruns one case (or property) against the same implementation. */
function rerunRest(values: Values, id: string, seed: number): string[] {
  // A flaky case shows only when repeated.
  const repeat = typeof values['repeat'] === 'string' && values['repeat'].trim() !== '1' ? ['--repeat', shellQuote(values['repeat'])] : [];
  if (id.startsWith('property/')) {
    return [
      ...repeat,
      '--cases',
      'none',
      '--filter',
      shellQuote(id),
      '--seed',
      String(seed),
      ...(typeof values['properties'] === 'string' ? ['--properties', values['properties']] : []),
    ];
  }
  const cases = typeof values['cases'] === 'string' && values['cases'] !== 'none' ? ['--cases', shellQuote(values['cases'])] : [];
  return [...repeat, ...cases, '--filter', shellQuote(id), '--properties', '0'];
}

function loadCases(dir: string | undefined): GoldenCase[] {
  if (dir === 'none') return [];
  let corpus: Corpus;
  try {
    corpus = loadCorpus(dir ?? BUNDLED_CASES_DIR);
  } catch (e) {
    throw new UsageError(`cannot read the cases in ${dir ?? BUNDLED_CASES_DIR}: ${(e as Error).message}`);
  }
  if (corpus.problems.length > 0) {
    const shown = corpus.problems.slice(0, 20).map(formatProblem);
    const more = corpus.problems.length > 20 ? `\n(and ${corpus.problems.length - 20} more)` : '';
    throw new UsageError(`the cases have problems (fix them, or see them all with ${kitCommand()} validate):\n${shown.join('\n')}${more}`);
  }
  return corpus.cases;
}

export async function run(argv: string[]): Promise<number> {
  await loadImplementationOptions();
  const { values } = parseArgs({ args: argv, options: options(), allowPositionals: false });
  if (values.help) {
    out(HELP());
    return EXIT_OK;
  }
  const { runs: properties, seed } = randomRuns(values);
  let shard: { index: number; total: number } | undefined;
  if (typeof values.shard === 'string') {
    shard = parseShard(values.shard);
    if (!shard) throw new UsageError(`--shard needs I/N with 1 <= I <= N, e.g. 1/4, not ${JSON.stringify(values.shard)}`);
  }
  const repeat = intOption(values, 'repeat', 1, 1);
  if (typeof values.spec === 'string') {
    const problem = specVersionProblem(values.spec);
    if (problem) throw new UsageError(`--spec: ${problem}`);
  }
  // The options that need no file are checked before the cases are read: a usage error costs no corpus.
  const chosen = await chooseImplementation(values, ['assembler', 'service']);
  const flags = implementationFlags(values);
  const cases = loadCases(values.cases as string | undefined);
  const filter = typeof values.filter === 'string' ? values.filter : undefined;
  if (filter !== undefined) await checkFilterOption(filter, cases);
  await checkBaseline(values.baseline as string | undefined);
  await checkReportPaths(values);
  const bar = progressFor(values);
  const caseRerun = (id: string): string => rerunCommand('run', flags, rerunRest(values, id, seed));
  // A memory service is judged on its contract (SPEC section 16): ctxconform contract, of which this is the alias.
  if (chosen.transport.kind === 'service') {
    const { contractAlias } = await import('./contract.js');
    return contractAlias(values, chosen, {
      cases,
      runs: properties,
      seed,
      ...(filter !== undefined ? { filter } : {}),
      ...(typeof values.spec === 'string' ? { spec: values.spec } : {}),
      repeat,
      ...(shard ? { shard } : {}),
      ...(bar ? { bar } : {}),
      caseRerun,
    });
  }
  return withImplementation(chosen, async (opened) => {
    const observations = new ObservationLog();
    let report: Report;
    try {
      report = await runSuite({
        ...opened,
        cases,
        properties,
        seed,
        ...(filter !== undefined ? { filter } : {}),
        ...(typeof values.spec === 'string' ? { spec: values.spec } : {}),
        ...(repeat > 1 ? { repeat } : {}),
        ...(shard ? { shard } : {}),
        ...(typeof values['save-counterexamples'] === 'string' ? { saveCounterexamples: values['save-counterexamples'] } : {}),
        ...(bar ? { onProgress: (d: number, t: number, c: string) => bar.update(d, t, c) } : {}),
        signal: stopSignal(),
        rerun: caseRerun,
        observations,
      });
    } finally {
      bar?.end();
    }
    const seconds = ((report.run?.duration_ms ?? 0) / 1000).toFixed(2);
    return (await finish(report, values, { opened, what: `in ${seconds} s`, repeat, observations })).status;
  });
}
