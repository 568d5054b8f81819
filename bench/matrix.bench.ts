/**
 * The matrix at the size of a public comparison site: 20 implementations over
 * the bundled corpus, each failing a different tenth of it, built and
 * rendered as HTML, Markdown and JSON. Printed: time and output size.
 */
import { loadCorpus } from '../judging/cases/load.js';
import { summarize } from '../protocol/types.js';
import type { CaseResult, Report } from '../protocol/types.js';
import { buildMatrix, renderMatrixJson } from '../report/matrix.js';
import { renderMatrixHtml } from '../report/matrix-html.js';
import { renderMatrixMarkdown } from '../report/matrix-markdown.js';

const cases = loadCorpus().cases;
const IMPLEMENTATIONS = 20;
const reports: Report[] = Array.from({ length: IMPLEMENTATIONS }, (_, k) => {
  const results: CaseResult[] = cases.map((c, i) =>
    (i + k) % 10 === 0
      ? {
          id: c.id,
          kind: 'case',
          level: 'profile',
          status: 'fail',
          requirements: c.requirements,
          since: c.since,
          duration_ms: 1,
          message: 'estimated_tokens: expected 4, got 5',
          expected: { estimated_tokens: 4, context: 'x'.repeat(400) },
          actual: { estimated_tokens: 5, context: 'y'.repeat(400) },
        }
      : { id: c.id, kind: 'case', level: 'profile', status: 'pass', requirements: c.requirements, since: c.since, duration_ms: 1 },
  );
  return {
    kit: { name: 'ctxconform', version: '0.1.0', spec: 'v1' },
    implementation: { name: `impl-${k}`, version: '1.0.0', profiles: ['tiered'], capabilities: [] },
    summary: summarize(results),
    cases: results,
  };
});

const t0 = performance.now();
const m = buildMatrix(reports.map((report, i) => ({ source: `r${i}.json`, report })));
const t1 = performance.now();
const html = renderMatrixHtml(m);
const t2 = performance.now();
const md = renderMatrixMarkdown(m);
const t3 = performance.now();
const json = renderMatrixJson(m, '0.1.0');
const t4 = performance.now();
const mib = (s: string): string => (Buffer.byteLength(s, 'utf8') / 2 ** 20).toFixed(2);
console.log(
  `matrix of ${IMPLEMENTATIONS} implementations x ${cases.length} cases (${m.rows.length * IMPLEMENTATIONS} cells, ${(cases.length * IMPLEMENTATIONS) / 10} failing)`,
);
console.log(`  build    ${(t1 - t0).toFixed(0).padStart(6)} ms`);
console.log(`  html     ${(t2 - t1).toFixed(0).padStart(6)} ms  ${mib(html)} MiB`);
console.log(`  markdown ${(t3 - t2).toFixed(0).padStart(6)} ms  ${mib(md)} MiB`);
console.log(`  json     ${(t4 - t3).toFixed(0).padStart(6)} ms  ${mib(json)} MiB`);
