/**
 * The matrix in Markdown, for a step summary or a README: the implementations
 * with their scores, a score per area, and the cases not every implementation
 * passes. Every string from a report goes through the run report's escaping
 * (report/markdown.ts), so no answer can open a link, a tag or a column.
 */
import { CELL_STATUSES, columnLabels, NOT_RUN, tallyText } from './matrix.js';
import type { CellStatus, Matrix } from './matrix.js';
import { cell, code, MAX_SUMMARY_BYTES, table } from './markdown.js';
import { constantsText } from './text.js';

const ICON: Record<CellStatus, string> = { pass: '✅', fail: '❌', error: '💥', timeout: '⏱️', crash: '☠️', flaky: '🎲', skip: '⏭️', [NOT_RUN]: '➖' };
const MAX_ROWS = 500;

export function renderMatrixMarkdown(m: Matrix): string {
  let rowsShown = MAX_ROWS;
  for (;;) {
    const text = render(m, rowsShown);
    if (rowsShown === 0 || Buffer.byteLength(text, 'utf8') <= MAX_SUMMARY_BYTES) return text;
    rowsShown = Math.floor(rowsShown / 2);
  }
}

function render(m: Matrix, maxRows: number): string {
  const labels = columnLabels(m.columns).map((l) => cell(l));
  const out: string[] = [];
  out.push(`## ctxconform matrix: ${m.columns.length} implementation${m.columns.length === 1 ? '' : 's'}, ${m.rows.length} cases`);
  out.push('');
  out.push(`Cases merged by id; ${ICON[NOT_RUN]} ${NOT_RUN}: the report does not have the case. Score: pass / cases that ran.`);
  out.push('');
  const facts: Array<[string, string[]]> = [
    ['language', m.columns.map((c) => cell(c.language ?? ''))],
    ['kit', m.columns.map((c) => cell(c.kit))],
    ['spec', m.columns.map((c) => cell(`${c.spec}${c.casesSpec ? ` (cases of ${c.casesSpec})` : ''}`))],
    ['levels', m.columns.map((c) => cell(c.levels))],
    ['date', m.columns.map((c) => cell(c.date ?? ''))],
    ['declared constants', m.columns.map((c) => cell(c.constants ? constantsText(c.constants) : ''))],
    ['**score**', m.overall.map((t) => `**${tallyText(t)}**`)],
    ...CELL_STATUSES.filter((s) => m.overall.some((t) => t[s === NOT_RUN ? 'not_run' : s] > 0)).map((s): [string, string[]] => [
      `${ICON[s]} ${s}`,
      m.overall.map((t) => String(t[s === NOT_RUN ? 'not_run' : s])),
    ]),
  ];
  out.push(
    table(
      ['', ...labels],
      facts.filter(([, v]) => v.some((x) => x !== '')).map(([k, v]) => [k, ...v]),
    ),
  );
  out.push('');
  out.push('### By area');
  out.push('');
  out.push(
    table(
      ['area', 'cases', ...labels],
      [
        ...m.areas.map((a) => [cell(a.area), String(a.tallies[0]?.total ?? 0), ...a.tallies.map(tallyText)]),
        ['**all**', `**${m.rows.length}**`, ...m.overall.map((t) => `**${tallyText(t)}**`)],
      ],
    ),
  );
  out.push('');
  const notAll = m.rows.filter((r) => r.cells.some((c) => c.status !== 'pass'));
  out.push(`### Cases not passed by every implementation (${notAll.length})`);
  out.push('');
  if (notAll.length === 0) out.push('None: every implementation passes every case.');
  else {
    const mark = (c: (typeof notAll)[number]['cells'][number]): string =>
      `${ICON[c.status]} ${c.status}${c.baseline === 'by-design' ? ' (by design)' : c.baseline === 'known' ? ' (known)' : ''}`;
    out.push(
      table(
        ['case', 'since', ...labels],
        notAll.slice(0, maxRows).map((r) => [code(r.id, true), cell(r.since ?? ''), ...r.cells.map(mark)]),
      ),
    );
    if (notAll.length > maxRows) out.push('', `…and ${notAll.length - maxRows} more in the HTML and JSON matrix.`);
  }
  out.push('');
  return out.join('\n');
}
