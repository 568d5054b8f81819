/**
 * `ctxconform matrix A.json B.json ...`: several implementations' JSON reports
 * side by side, merged by case id (reports of different kit versions too; a
 * case a report lacks is "not run"), as HTML, Markdown and a JSON summary.
 */
import { parseArgs } from 'node:util';
import { writeMatrix } from '../report/index.js';
import { buildMatrix, columnLabels, tallyText } from '../report/matrix.js';
import { stripAnsi } from '../report/text.js';
import { readReport, ReportFileError } from '../judging/baseline.js';
import type { Report } from '../protocol/types.js';
import { KIT_VERSION } from '../vocabulary/spec.js';
import { EXIT_OK, UsageError } from './usage.js';
import { out, err } from './output.js';
import { terminalValue } from '../report/terminal.js';

export const usage = 'ctxconform matrix A.json B.json ... [--html FILE] [--markdown FILE] [--json FILE]';

const HELP = `usage: ${usage}

Compares implementations: one column per JSON report (of ctxconform run), one row per
case id found in any of them, grouped by area; scores (pass / cases that ran) per
implementation, per area and per requirement. Reports of different kit versions are
merged by case id; a case a report does not have is "not run". Merge the shards of
one run first (ctxconform merge).

  --html FILE      one self-contained page: filters, and expected vs actual of a
                   failing cell on demand
  --markdown FILE  implementations, scores by area, and the cases not every
                   implementation passes (for $GITHUB_STEP_SUMMARY)
  --json FILE      the summary a site can consume (protocol/schemas/matrix.schema.json)

Prints the scores. Exit status: 0, or 2 when a file is not a report.`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { html: { type: 'string' }, markdown: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    out(HELP);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError(`no reports given\nusage: ${usage}`);
  let inputs: { source: string; report: Report }[];
  try {
    inputs = positionals.map((file) => ({ source: file, report: readReport(file) }));
  } catch (e) {
    if (e instanceof ReportFileError) throw new UsageError(e.message);
    throw e;
  }
  for (const { source, report } of inputs) {
    if (report.run?.shard) err(`note: ${source} is shard ${report.run.shard} of a run: its other cases show as not run (ctxconform merge joins the shards)`);
  }
  const m = buildMatrix(inputs);
  const labels = columnLabels(m.columns).map((l) => terminalValue(stripAnsi(l)));
  const width = Math.max(...labels.map((l) => l.length));
  out(`${m.columns.length} implementation${m.columns.length === 1 ? '' : 's'}, ${m.rows.length} cases`);
  m.columns.forEach((c, i) => {
    const t = m.overall[i]!;
    const missing = t.not_run > 0 ? `, ${t.not_run} not run` : '';
    out(
      `  ${labels[i]!.padEnd(width)}  ${tallyText(t).padStart(16)}  kit ${terminalValue(c.kit)}, spec ${terminalValue(c.spec)}${t.skip > 0 ? `, ${t.skip} skip` : ''}${missing}`,
    );
    // Each run's levels, as its own run said them (SPEC LVL-1): a pass count alone hides the level it was judged at.
    out(`  ${''.padEnd(width)}  levels: ${terminalValue(c.levels)}`);
  });
  let written: string[];
  try {
    written = writeMatrix(m, { json: values.json, markdown: values.markdown, html: values.html }, KIT_VERSION);
  } catch (e) {
    throw new UsageError(`cannot write the matrix: ${(e as Error).message}`);
  }
  for (const f of written) out(`wrote ${f}`);
  return EXIT_OK;
}
