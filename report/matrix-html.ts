/**
 * The matrix as one self-contained HTML page, under the run report's rules
 * (report/html.ts): a policy that allows only the page's own style and script,
 * every string from a report escaped, no link but the page's own anchors, and
 * everything readable without JavaScript. A failing cell opens on demand
 * (`<details>`, no script needed) to its message and expected vs actual; the
 * script only adds filters (area, status, rows where implementations differ).
 */
import type { CaseResult } from '../protocol/types.js';
import { shownOf } from './shown.js';
import { diffTable, h, htmlPage, visible } from './html.js';
import { FILTER_GROUP, STYLE } from './html-assets.js';
import { CELL_STATUSES, columnLabels, disagrees, NOT_RUN, tallyText } from './matrix.js';
import type { CellStatus, Matrix, MatrixCell, MatrixColumn, Tally } from './matrix.js';
import { clip, constantsText, shownClipped } from './text.js';
import { isFailing } from '../protocol/verdict.js';

const MAX_MESSAGE = 2_000;
const MAX_VALUE = 4_000;
// Past this many failing cells a cell keeps its message only, so a page of many
// implementations with many failures still opens quickly; the JSON reports keep all.
const MAX_DETAILED_CELLS = 600;

const MATRIX_STYLE = `${STYLE}
body{max-width:none}
.st.notrun{background:#fff;color:var(--muted);border:1px dashed var(--line)}
table#matrix th.impl,table#area-scores th.impl{min-width:9em}
table#matrix td.cell{white-space:nowrap}
table#matrix td.cell details[open]{white-space:normal;min-width:36em}
table#matrix tr.area th{background:#eaeef2;text-align:left}
table#matrix td.req,table#matrix td.since{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--muted)}
td.band-100{background:#dafbe1}td.band-90{background:#eef9e9}td.band-50{background:#fff8c5}td.band-0{background:#ffebe9}
.badge{font-size:11px;color:var(--muted);margin-left:4px}
summary{cursor:pointer}
`;

// Progressive enhancement only: without it every row is shown.
const MATRIX_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('matrix-data').textContent);
  var bar = document.getElementById('filters');
  var rows = Array.prototype.slice.call(document.querySelectorAll('#matrix tbody tr[data-area]'));
  var heads = Array.prototype.slice.call(document.querySelectorAll('#matrix tbody tr[data-area-head]'));
  var shown = document.getElementById('shown');
  var state = { area: '', status: '', differs: '' };
  function apply() {
    var n = 0;
    var seen = {};
    rows.forEach(function (tr) {
      var statuses = ' ' + tr.getAttribute('data-statuses') + ' ';
      var ok = (!state.area || tr.getAttribute('data-area') === state.area) &&
        (!state.status || statuses.indexOf(' ' + state.status + ' ') >= 0) &&
        (!state.differs || tr.getAttribute('data-differs') === '1');
      tr.hidden = !ok;
      if (ok) { n++; seen[tr.getAttribute('data-area')] = true; }
    });
    heads.forEach(function (tr) { tr.hidden = !seen[tr.getAttribute('data-area-head')]; });
    shown.textContent = n + ' of ' + rows.length + ' cases shown';
  }
${FILTER_GROUP}
  group('rows', 'differs', [{ value: '1', label: 'where implementations differ (' + data.differing + ')' }]);
  group('status', 'status', data.statuses);
  group('area', 'area', data.areas);
  bar.hidden = false;
  apply();
})();
`;

const token = (s: CellStatus): string => (s === NOT_RUN ? 'not-run' : s);

function chip(s: CellStatus): string {
  return `<span class="st ${s === NOT_RUN ? 'notrun' : s}">${s}</span>`;
}

/** A background by score band, so a column reads at a glance. */
function band(t: Tally): string {
  if (t.score === undefined) return '';
  const pct = t.score * 100;
  return ` class="n band-${pct >= 100 ? 100 : pct >= 90 ? 90 : pct >= 50 ? 50 : 0}"`;
}

function tallyCell(t: Tally): string {
  return `<td${band(t) || ' class="n"'}>${h(tallyText(t))}</td>`;
}

/** What a failing cell opens to: the message, then expected vs actual (or a flaky case's answers). */
function cellDetail(r: CaseResult, detailed: boolean): string {
  const x = shownOf(r);
  const out: string[] = [];
  if (r.message) out.push(`<pre class="message">${h(clip(r.message, MAX_MESSAGE))}</pre>`);
  if (!detailed) {
    out.push('<p class="muted">Expected and actual are in the run\'s JSON and HTML reports.</p>');
    return out.join('');
  }
  const [a, b] = x.answers ?? [];
  const clipped = (v: unknown): string => shownClipped(v, MAX_VALUE);
  if (a && b) {
    const label = (x: typeof a): string => `${x.repeats.length > 1 ? 'repeats' : 'repeat'} ${x.repeats.join(', ')}: ${x.status}`;
    out.push(diffTable(clipped(a.answer ?? a.message ?? ''), clipped(b.answer ?? b.message ?? ''), [label(a), label(b)]));
  } else if (x.expected !== undefined && x.actual !== undefined) out.push(diffTable(clipped(x.expected), clipped(x.actual)));
  else if (x.actual !== undefined) out.push(`<p>Actual:</p><pre>${h(clipped(x.actual))}</pre>`);
  if (x.counterexample !== undefined) out.push(`<p>Counterexample (seed ${x.seed ?? '?'}):</p><pre>${h(clipped(x.counterexample))}</pre>`);
  return out.join('');
}

function cell(c: MatrixCell, detailed: boolean): string {
  const excuse = c.baseline ? `<span class="badge">${c.baseline === 'by-design' ? 'by design' : 'known'}</span>` : '';
  const r = c.result;
  if (!r) return `<td class="cell">${chip(NOT_RUN)}</td>`;
  if (isFailing(r)) {
    const reason = c.reason ? `<p class="muted">Baseline: ${h(c.reason)}</p>` : '';
    return `<td class="cell"><details><summary>${chip(c.status)}${excuse}</summary>${reason}${cellDetail(r, detailed)}</details></td>`;
  }
  // A skip's reason on demand, as the chip's title.
  if (r.status === 'skip' && r.message) return `<td class="cell"><span class="st skip" title="${h(clip(r.message, MAX_MESSAGE))}">skip</span></td>`;
  return `<td class="cell">${chip(c.status)}</td>`;
}

type Fact = [string, (c: MatrixColumn) => string];

/** The rows of the implementations table that some column has a value for. */
function columnFacts(columns: readonly MatrixColumn[]): Fact[] {
  const facts: Fact[] = [
    ['version', (c) => c.version],
    ['language', (c) => c.language ?? ''],
    ['kit', (c) => c.kit],
    ['spec', (c) => `${c.spec}${c.casesSpec ? ` (cases of ${c.casesSpec})` : ''}`],
    ['date', (c) => c.date ?? ''],
    ['adapter', (c) => c.adapter ?? ''],
    ['declared constants', (c) => (c.constants ? constantsText(c.constants) : '')],
    ['report', (c) => `${c.source}${c.shard ? ` (shard ${c.shard})` : ''}`],
  ];
  return facts.filter(([, f]) => columns.some((c) => f(c) !== ''));
}

export function renderMatrixHtml(m: Matrix): string {
  const labels = columnLabels(m.columns);
  const heads = labels.map((l) => `<th class="impl">${h(l)}</th>`).join('');
  const body: string[] = [];
  body.push(`<h1>ctxconform matrix: ${m.columns.length} implementation${m.columns.length === 1 ? '' : 's'}, ${m.rows.length} cases</h1>`);
  body.push(
    `<p class="muted">Each column is one implementation's JSON report; cases are merged by id, and a case a ` +
      `report does not have is <em>${NOT_RUN}</em>. A score is pass / cases that ran (skip and not run set aside). A failing cell opens to its message and expected vs actual.</p>`,
  );

  body.push('<h2 id="implementations">Implementations</h2>');
  body.push(`<table id="implementations-table"><thead><tr><th></th>${heads}</tr></thead><tbody>`);
  for (const [name, f] of columnFacts(m.columns)) body.push(`<tr><th>${name}</th>${m.columns.map((c) => `<td>${h(f(c))}</td>`).join('')}</tr>`);
  body.push(`<tr><th>score</th>${m.overall.map((t) => tallyCell(t)).join('')}</tr>`);
  for (const s of CELL_STATUSES) {
    if (m.overall.every((t) => t[s === NOT_RUN ? 'not_run' : s] === 0)) continue;
    body.push(
      `<tr><th>${chip(s)}</th>${m.overall.map((t) => `<td class="n" data-count="${token(s)}">${t[s === NOT_RUN ? 'not_run' : s]}</td>`).join('')}</tr>`,
    );
  }
  body.push('</tbody></table>');

  body.push('<h2 id="areas">Scores by area</h2>');
  body.push(`<table id="area-scores"><thead><tr><th>area</th><th>cases</th>${heads}</tr></thead><tbody>`);
  for (const a of m.areas)
    body.push(`<tr><td>${h(a.area)}</td><td class="n">${a.tallies[0]?.total ?? 0}</td>${a.tallies.map((t) => tallyCell(t)).join('')}</tr>`);
  body.push(`<tr><th>all</th><td class="n">${m.rows.length}</td>${m.overall.map((t) => tallyCell(t)).join('')}</tr>`);
  body.push('</tbody></table>');

  body.push(`<details id="requirements"><summary>Scores by requirement (${m.requirements.length} ids)</summary>`);
  body.push(`<table id="requirement-scores"><thead><tr><th>requirement</th><th>cases</th>${heads}</tr></thead><tbody>`);
  for (const r of m.requirements)
    body.push(`<tr><td><code>${h(r.id)}</code></td><td class="n">${r.cases.length}</td>${r.tallies.map((t) => tallyCell(t)).join('')}</tr>`);
  body.push('</tbody></table></details>');

  body.push('<h2 id="cases">Cases</h2>');
  body.push('<div id="filters" hidden></div><p class="muted" id="shown"></p>');
  body.push(`<table id="matrix"><thead><tr><th>case</th><th>since</th><th>requirements</th>${heads}</tr></thead>`);
  let detailed = 0;
  for (const a of m.areas) {
    const area = h(a.area);
    body.push(
      `<tbody><tr data-area-head="${area}" class="area"><th colspan="3">${area}</th>${a.tallies.map((t) => `<th class="n">${h(tallyText(t))}</th>`).join('')}</tr>`,
    );
    for (const r of m.rows) {
      if (r.area !== a.area) continue;
      const statuses = [...new Set(r.cells.map((c) => token(c.status)))].join(' ');
      const cells = r.cells.map((c) => {
        const failing = c.result !== undefined && isFailing(c.result);
        if (failing) detailed++;
        return cell(c, !failing || detailed <= MAX_DETAILED_CELLS);
      });
      const title = r.description ? ` title="${h(r.description)}"` : '';
      body.push(
        `<tr data-area="${area}" data-statuses="${statuses}" data-differs="${disagrees(r) ? 1 : 0}"><td ` +
          `class="id"${title}>${h(r.id)}</td><td class="since">${h(r.since ?? '')}</td><td class="req">${h(r.requirements.join(' '))}</td>${cells.join('')}</tr>`,
      );
    }
    body.push('</tbody>');
  }
  body.push('</table>');
  body.push(`<p class="muted">Generated by ctxconform matrix from ${m.columns.length} JSON report${m.columns.length === 1 ? '' : 's'}.</p>`);

  const statusCounts = CELL_STATUSES.map((s) => ({ value: token(s), count: m.rows.filter((r) => r.cells.some((c) => c.status === s)).length })).filter(
    (x) => x.count > 0,
  );
  const data = {
    statuses: statusCounts,
    // The same escaping as the data-area attributes, so the script compares like with like.
    areas: m.areas.map((a) => ({ value: visible(a.area), count: a.tallies[0]?.total ?? 0 })),
    differing: m.rows.filter(disagrees).length,
  };
  return htmlPage({ title: `ctxconform matrix: ${labels.map(h).join(' · ')}`, style: MATRIX_STYLE, script: MATRIX_SCRIPT, dataId: 'matrix-data', data, body });
}
