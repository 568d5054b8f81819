/**
 * `ctxconform sweep`: one block set (a golden case, a recorded request or a
 * generated one) at every budget, against the reference and the
 * implementation: the first budget where they disagree and each block's
 * inclusion intervals (docs/replay.md). Exit 0 when they agree at every
 * budget, 1 when they do not, 2 for a usage error.
 */
import { kitCommand } from './invocation.js';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { validateRequest } from '../reference/index.js';
import { BUNDLED_CASES_DIR, loadCorpus } from '../judging/cases/load.js';
import { genContext, request as generatedRequest } from '../judging/properties/arbitraries.js';
import type { GenRequest } from '../judging/properties/arbitraries.js';
import { checkReportPaths } from './report-options.js';
import { reportsHelp, checkBaseline, finish, implementationHelp, judgingOptions, stopSignal, withImplementation } from './drive.js';
import { readRecorded, recordedSource } from '../traffic/replay/read.js';
import { textTable } from '../report/text-table.js';
import { sweepFinding, sweptText } from '../report/sweep-text.js';
import { terminalValue } from '../report/terminal.js';
import { parseBudgets, sweep } from '../traffic/sweep.js';
import { ObservationLog, STREAM_LIMITS } from '../diagnosis/log.js';
import type { BudgetRange } from '../traffic/sweep.js';
import type { BudgetIntervals, Manifest, SweepInfo } from '../protocol/types.js';
import { EXIT_OK, UsageError, intOption } from './usage.js';
import { chooseImplementation, loadImplementationOptions } from './implementation.js';
import { out } from './output.js';

export const usage = 'ctxconform sweep (--case ID | --request FILE[:LINE] | --generate SEED) [--budgets A..B/STEP] [implementation] [options]';

const HELP = (): string => `usage: ${usage}

The block set at every budget from 0 to the budget that admits every block (at most
2001 budgets, the step widened to fit), or --budgets A..B[/STEP], each sent to the
implementation and judged as a replayed request is: the first budget where it
disagrees with the reference, and each block's inclusion intervals on both sides
(the HTML report draws them). The first disagreement is shrunk.

the block set (one):
  --case ID               a golden case (--cases DIR; default the bundled corpus)
  --request FILE[:LINE]   a recorded request (the first one of FILE without :LINE)
  --generate SEED         the largest of 20 requests the properties generate at SEED

  --budgets A..B[/STEP]   the budgets to sweep
  --no-shrink             do not shrink the first disagreement

${implementationHelp()}

${reportsHelp()}

exit status: 0 the implementation agrees with the reference at every budget, 1 it does
not, 2 usage error or an implementation that cannot be started.`;

const options = () =>
  ({
    ...judgingOptions(),
    case: { type: 'string' },
    cases: { type: 'string' },
    request: { type: 'string' },
    generate: { type: 'string' },
    budgets: { type: 'string' },
    'no-shrink': { type: 'boolean' },
  }) as const;

async function recordedRequest(arg: string): Promise<{ request: unknown; source: string }> {
  const src = recordedSource(arg);
  for await (const rec of readRecorded(src.path)) {
    if (src.line !== undefined && rec.line !== src.line) continue;
    if ('unreadable' in rec) throw new UsageError(`${src.label}:${rec.line}: unreadable line: ${rec.unreadable}`);
    return { request: rec.request, source: `${src.label}:${rec.line}` };
  }
  throw new UsageError(src.line !== undefined ? `${src.label} has no request on line ${src.line}` : `${src.label} holds no request`);
}

function caseRequest(id: string, dir: string | undefined): { request: unknown; source: string } {
  const { cases } = loadCorpus(dir ?? BUNDLED_CASES_DIR);
  const c = cases.find((x) => x.id === id);
  if (!c) throw new UsageError(`no case ${id} in ${dir ?? 'the bundled corpus'} (${kitCommand()} list shows the ids)`);
  return { request: c.request, source: c.id };
}

/** Of 20 generated requests, the one with the most blocks: a sweep of an empty set shows nothing. */
function generated(seed: number, manifest: Manifest): { request: unknown; source: string } {
  const sample: GenRequest[] = fc.sample(generatedRequest(genContext(manifest)), { numRuns: 20, seed });
  const best = sample.reduce((a, b) => (b.blocks.length > a.blocks.length ? b : a));
  return { request: best, source: `generated-seed-${seed}` };
}

/** Failures printed in full on the terminal; the reports hold them all. */
const PRINTED_FAILURES = 20;

const span = (xs: BudgetIntervals): string => (xs.length === 0 ? '-' : xs.map(([a, b]) => (a === b ? `${a}` : `${a}..${b}`)).join(', '));

/** Each block's inclusion intervals, reference against implementation; rows that differ marked. */
export function sweepTable(info: SweepInfo): string {
  // Held to the principles, the reference's column is tiered's selection beside a design of its own: shown, never marked.
  const principles = info.judged_by === 'principles';
  const rows = info.blocks.map((b) => [
    terminalValue(b.block_id),
    span(b.reference),
    span(b.implementation),
    principles || span(b.reference) === span(b.implementation) ? '' : '<- differs',
  ]);
  const b = info.budgets;
  const reference = principles ? 'tiered' : 'the reference';
  const lines = [
    `budgets ${b.from}..${b.to}${b.step > 1 ? ` step ${b.step}` : ''} (${sweptText(info)})${info.admits_all_from !== null ? `; ${reference} includes all it can from ${info.admits_all_from}` : ''}`,
    textTable([['block', principles ? 'tiered includes at (no verdict)' : 'reference includes at', 'implementation includes at', ''], ...rows]),
  ];
  lines.push(sweepFinding(info));
  return lines.join('\n');
}

export async function run(argv: string[]): Promise<number> {
  await loadImplementationOptions();
  const { values } = parseArgs({ args: argv, options: options(), allowPositionals: false });
  if (values.help) {
    out(HELP());
    return EXIT_OK;
  }
  const chosen = (['case', 'request', 'generate'] as const).filter((k) => values[k] !== undefined);
  if (chosen.length !== 1)
    throw new UsageError(
      `name one block set: --case ID, --request FILE[:LINE] or --generate SEED${chosen.length > 1 ? `, not ${chosen.map((k) => `--${k}`).join(' and ')}` : ''}`,
    );
  let budgets: BudgetRange | undefined;
  if (typeof values.budgets === 'string') {
    budgets = parseBudgets(values.budgets);
    if (!budgets) throw new UsageError(`--budgets needs A..B or A..B/STEP with 0 <= A <= B <= 2^53 - 1 and STEP >= 1, not ${JSON.stringify(values.budgets)}`);
  }
  const seed = values.generate !== undefined ? intOption(values, 'generate', 1, -(2 ** 31)) : 0;
  await checkBaseline(values.baseline as string | undefined);
  await checkReportPaths(values);
  const implementation = await chooseImplementation(values, ['assembler']);
  const given =
    typeof values.case === 'string'
      ? caseRequest(values.case, values.cases as string | undefined)
      : typeof values.request === 'string'
        ? await recordedRequest(values.request)
        : undefined;

  return withImplementation(implementation, async (opened) => {
    const { request, source } = given ?? generated(seed, opened.manifest);
    const problems = validateRequest(request);
    if (problems.length > 0) {
      throw new UsageError(
        `the block set of ${source} is not a valid request, so no budget makes it one: ${problems
          .slice(0, 3)
          .map((p) => `${p.path || '(request)'}: ${p.message}`)
          .join('; ')}`,
      );
    }
    const observations = new ObservationLog(STREAM_LIMITS);
    const report = await sweep({
      ...opened,
      observations,
      request,
      source,
      ...(budgets ? { budgets } : {}),
      shrink: !values['no-shrink'],
      signal: stopSignal(),
      ...(typeof values['save-counterexamples'] === 'string' ? { saveCounterexamples: values['save-counterexamples'] } : {}),
    });
    const seconds = ((report.run?.duration_ms ?? 0) / 1000).toFixed(2);
    const { status } = await finish(report, values, {
      opened,
      what: `sweeps (${report.sweep!.budgets.count} budgets in ${seconds} s)`,
      printAtMost: PRINTED_FAILURES,
      observations,
    });
    out(`\n${sweepTable(report.sweep!)}`);
    return status;
  });
}
