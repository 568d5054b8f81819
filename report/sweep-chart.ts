/**
 * The budget sweep's inclusion chart: inline SVG, one row per block, the
 * budgets across. Each row holds two bars, the budgets at which the reference
 * includes the block (upper) and those at which the implementation does
 * (lower); budgets where the two answers differ are shaded red across every
 * row, and the first is marked with a line. Plain markup with presentation
 * attributes: nothing to run, nothing the page's Content-Security-Policy
 * blocks, and every bar carries a <title> with its budgets.
 */
import type { BudgetIntervals, SweepInfo } from '../protocol/types.js';

/** Rows drawn; the table under the chart lists every block. */
export const MAX_CHART_ROWS = 150;

const COLOURS = { reference: '#1a7f37', implementation: '#0969da', disagreement: '#cf222e', axis: '#656d76', grid: '#d0d7de' };
const LABEL_WIDTH = 170;
const PLOT_WIDTH = 760;
const ROW = 20;
const TOP = 48;

export const span = (xs: BudgetIntervals): string => (xs.length === 0 ? 'never' : xs.map(([a, b]) => (a === b ? `${a}` : `${a}..${b}`)).join(', '));

/** Round tick values across [from, to]: the ends, and steps of 1, 2 or 5 times a power of ten. */
function ticks(from: number, to: number): number[] {
  const range = Math.max(1, to - from);
  const raw = range / 6;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw)!;
  const out = new Set([from, to]);
  for (let t = Math.ceil(from / step) * step; t < to; t += step) if (t - from > range / 20 && to - t > range / 20) out.add(t);
  return [...out].sort((a, b) => a - b);
}

/** `esc` escapes text for HTML (the report's own). */
export function sweepChart(info: SweepInfo, esc: (s: string) => string): string {
  const { from, to, step } = info.budgets;
  // Each swept budget covers up to the next one; the last covers one step.
  const end = to + step;
  const x = (b: number): number => LABEL_WIDTH + ((Math.min(b, end) - from) / (end - from)) * PLOT_WIDTH;
  const bar = (a: number, b: number): [number, number] => {
    const x0 = x(a);
    return [x0, Math.max(1, x(Math.min(b + step, end)) - x0)];
  };
  const rows = info.blocks.slice(0, MAX_CHART_ROWS);
  const height = TOP + rows.length * ROW + 40;
  const width = LABEL_WIDTH + PLOT_WIDTH + 20;
  const n = (v: number): string => (Math.round(v * 10) / 10).toString();
  const out: string[] = [];
  const title =
    `Inclusion of each block by budget, ${from} to ${to}${step > 1 ? ` in steps of ${step}` : ''}: ` +
    `reference (green, upper bar) and implementation (blue, lower bar); budgets where they disagree shaded red`;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="sweep-chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="sweep-title">`,
  );
  out.push(`<title id="sweep-title">${esc(title)}</title>`);
  // Legend.
  const legend: [string, string][] = [
    [COLOURS.reference, 'reference includes'],
    [COLOURS.implementation, 'implementation includes'],
    [COLOURS.disagreement, 'answers differ'],
  ];
  legend.forEach(([c, label], i) => {
    const lx = LABEL_WIDTH + i * 200;
    out.push(
      `<rect x="${lx}" y="4" width="14" height="10" fill="${c}"${c === COLOURS.disagreement ? ' fill-opacity="0.25"' : ''}/><text ` +
        `x="${lx + 20}" y="13" font-size="12" fill="#1f2328">${esc(label)}</text>`,
    );
  });
  const plotBottom = TOP + rows.length * ROW;
  for (const [a, b] of info.disagreements) {
    const [x0, w] = bar(a, b);
    out.push(
      `<rect x="${n(x0)}" y="${TOP - 4}" width="${n(w)}" height="${rows.length * ROW + 4}" fill="${COLOURS.disagreement}" ` +
        `fill-opacity="0.18"><title>${esc(`answers differ at budgets ${a === b ? a : `${a}..${b}`}`)}</title></rect>`,
    );
  }
  rows.forEach((r, i) => {
    const y = TOP + i * ROW;
    out.push(
      `<line x1="${LABEL_WIDTH}" y1="${y + ROW - 1}" x2="${LABEL_WIDTH + PLOT_WIDTH}" y2="${y + ROW - 1}" stroke="${COLOURS.grid}" stroke-width="0.5"/>`,
    );
    const differs = span(r.reference) !== span(r.implementation);
    out.push(
      `<text x="${LABEL_WIDTH - 6}" y="${y + 13}" font-size="11" font-family="ui-monospace,Menlo,monospace" ` +
        `text-anchor="end" fill="${differs ? COLOURS.disagreement : '#1f2328'}">${esc(r.block_id.length > 24 ? r.block_id.slice(0, 23) + '…' : r.block_id)}</text>`,
    );
    for (const [a, b] of r.reference) {
      const [x0, w] = bar(a, b);
      out.push(
        `<rect x="${n(x0)}" y="${y + 3}" width="${n(w)}" height="6" ` +
          `fill="${COLOURS.reference}"><title>${esc(`${r.block_id}: the reference includes it at ${a === b ? a : `${a}..${b}`}`)}</title></rect>`,
      );
    }
    for (const [a, b] of r.implementation) {
      const [x0, w] = bar(a, b);
      out.push(
        `<rect x="${n(x0)}" y="${y + 10}" width="${n(w)}" height="6" ` +
          `fill="${COLOURS.implementation}"><title>${esc(`${r.block_id}: the implementation includes it at ${a === b ? a : `${a}..${b}`}`)}</title></rect>`,
      );
    }
  });
  // Axis.
  out.push(`<line x1="${LABEL_WIDTH}" y1="${plotBottom + 2}" x2="${LABEL_WIDTH + PLOT_WIDTH}" y2="${plotBottom + 2}" stroke="${COLOURS.axis}"/>`);
  for (const t of ticks(from, to)) {
    const tx = n(x(t));
    out.push(
      `<line x1="${tx}" y1="${plotBottom + 2}" x2="${tx}" y2="${plotBottom + 7}" stroke="${COLOURS.axis}"/><text ` +
        `x="${tx}" y="${plotBottom + 19}" font-size="11" text-anchor="middle" fill="${COLOURS.axis}">${t}</text>`,
    );
  }
  out.push(
    `<text x="${LABEL_WIDTH + PLOT_WIDTH / 2}" y="${plotBottom + 34}" font-size="11" text-anchor="middle" fill="${COLOURS.axis}">budget (tokens)</text>`,
  );
  if (info.first_disagreement !== null) {
    const fx = n(x(info.first_disagreement));
    out.push(
      `<line x1="${fx}" y1="${TOP - 8}" x2="${fx}" y2="${plotBottom + 2}" stroke="${COLOURS.disagreement}" ` +
        `stroke-width="2"><title>${esc(`first disagreement at budget ${info.first_disagreement}`)}</title></line>`,
    );
    out.push(
      `<text x="${fx}" y="${TOP - 9}" font-size="11" text-anchor="middle" fill="${COLOURS.disagreement}" font-weight="bold">first disagreement: ${info.first_disagreement}</text>`,
    );
  }
  out.push('</svg>');
  return out.join('\n');
}
