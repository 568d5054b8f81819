/**
 * `ctxconform tokens`: the reference's contexts over the corpus, counted with
 * real tokenizers (o200k_base, cl100k_base), against the estimate the budget
 * was enforced with. Information only: it never fails a run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { readReport, ReportFileError } from '../judging/baseline.js';
import { formatProblem, loadCorpus } from '../judging/cases/load.js';
import type { Report } from '../protocol/types.js';
import { formatRatio } from '../report/text.js';
import { markerOverhead, measureCases, tokenTable, UNDERCOUNT_THRESHOLD } from '../running/tokens.js';
import type { TokenTable } from '../protocol/types.js';
import { UsageError } from './usage.js';
import { out, err } from './output.js';

export const usage = 'ctxconform tokens [--cases DIR] [--json FILE] [--report REPORT.json --html FILE]';

export function formatTokenTable(t: TokenTable): string {
  const out: string[] = [];
  out.push(`estimate/real token ratio over ${t.rows.length} non-empty reference contexts`);
  out.push("(estimate = the result's estimated_tokens: code points / 4 of block contents, headers not counted)");
  out.push('');
  out.push(`${'encoding'.padEnd(12)}  ${'median'.padStart(7)}  ${'p5'.padStart(7)}  ${'p95'.padStart(7)}  ${'whole-context median'.padStart(20)}  undercounts`);
  for (const e of t.encodings) {
    out.push(
      `${e.encoding.padEnd(12)}  ${formatRatio(e.median).padStart(7)}  ${formatRatio(e.p5).padStart(7)}  ` +
        `${formatRatio(e.p95).padStart(7)}  ${formatRatio(e.context_median).padStart(20)}  ${e.undercounts.length}`,
    );
  }
  if (t.markers && t.markers.contexts > 0) {
    const m = t.markers;
    out.push('', `omission markers (SPEC 8.5, not charged against the budget): ${m.markers} in ${m.contexts} contexts`);
    for (const e of t.encodings) {
      out.push(
        `  ${e.encoding.padEnd(12)}  ${m.per_marker[e.encoding].toFixed(1)} real tokens per marker; ` +
          `${Math.round(m.share_median[e.encoding] * 100)}% of a context (median), ${Math.round(m.share_max[e.encoding] * 100)}% at most`,
      );
    }
  }
  for (const e of t.encodings) {
    if (e.undercounts.length === 0) continue;
    out.push(
      '',
      `${e.encoding}: estimate below ${Math.round(t.threshold * 100)}% of the real count (undercounts by more than ${Math.round((1 - t.threshold) * 100)}%):`,
    );
    for (const u of e.undercounts) out.push(`  ${u.id}  estimate ${u.estimated_tokens}, real ${u.real}, ratio ${formatRatio(u.ratio)}`);
  }
  return out.join('\n');
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { cases: { type: 'string' }, json: { type: 'string' }, report: { type: 'string' }, html: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    out(
      `usage: ${usage}\n\nAssembles every case of the corpus with the reference and counts the real tokens of each\n` +
        `non-empty context with gpt-tokenizer (o200k_base, cl100k_base; bundled, nothing downloaded).\n` +
        `Prints the estimate/real ratio (median, p5, p95; nearest-rank percentiles) per encoding and\n` +
        `the cases whose estimate is below ${UNDERCOUNT_THRESHOLD * 100}% of the real count.\n--json FILE writes the table. --report REPORT.json --html FILE renders that run's HTML report
with the table as its last section.`,
    );
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}\nusage: ${usage}`);
  if ((values.report === undefined) !== (values.html === undefined)) throw new UsageError(`--report and --html go together\nusage: ${usage}`);
  let report: Report | undefined;
  if (values.report !== undefined) {
    try {
      report = readReport(values.report);
    } catch (e) {
      if (e instanceof ReportFileError) throw new UsageError(e.message);
      throw e;
    }
  }
  const corpus = values.cases ? loadCorpus(values.cases) : loadCorpus();
  for (const p of corpus.problems) err(formatProblem(p));
  if (corpus.cases.length === 0) {
    err(`ctxconform tokens: no cases loaded${values.cases ? ` from ${values.cases}` : ''}`);
    return 1;
  }
  const table: TokenTable = { ...tokenTable(measureCases(corpus.cases)), markers: markerOverhead(corpus.cases) };
  out(formatTokenTable(table));
  if (values.json) {
    mkdirSync(dirname(values.json), { recursive: true });
    writeFileSync(values.json, JSON.stringify(table, null, 2) + '\n');
    out(`\nwrote ${values.json}`);
  }
  if (report && values.html) {
    const { writeReports } = await import('../report/index.js');
    await writeReports(report, { html: values.html }, { tokens: table });
    out(`wrote ${values.html}`);
  }
  return corpus.problems.length > 0 ? 1 : 0;
}
