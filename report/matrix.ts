/**
 * The comparison matrix: several implementations' JSON reports side by side,
 * merged by case id. Rows are cases (grouped by area, each with its
 * requirement ids and spec version), columns are implementations, cells are
 * statuses; a case a report lacks (an older kit, a filter, a shard) is
 * "not run". Pure: the HTML, Markdown and JSON writers render this model.
 */
import { byId } from '../protocol/types.js';
import type { CaseResult, Report, Status, Summary } from '../protocol/types.js';
import type { DeclaredConstants } from '../protocol/assembly.js';
import { areaOf, compareIds, levelsLine, wholePercent } from './text.js';
import { DECLARED_PROFILE, declaredConstants, isFailing } from '../protocol/verdict.js';

export const NOT_RUN = 'not run';
export type CellStatus = Status | typeof NOT_RUN;
/** Cell statuses in the order tables count them. */
export const CELL_STATUSES: readonly CellStatus[] = ['pass', 'fail', 'error', 'timeout', 'crash', 'flaky', 'skip', NOT_RUN];

export interface MatrixInput {
  /** Where the report came from (a file name): shown, so two columns of one implementation can be told apart. */
  source: string;
  report: Report;
}

export interface MatrixColumn {
  name: string;
  version: string;
  language?: string;
  kit: string;
  spec: string;
  /** `--spec` of the run: only the cases of that version ran. */
  casesSpec?: string;
  date?: string;
  adapter?: string;
  source: string;
  /** Set when the report is one shard of a run: its other cases read "not run". */
  shard?: string;
  /** run.constants of the report: the column is tiered with declared constants (SPEC section 17). */
  constants?: DeclaredConstants;
  /** The levels the run reached, in the words of its own levels line (SPEC LVL-1): `any design: PASS, validation: not declared`. */
  levels: string;
}

export interface MatrixCell {
  status: CellStatus;
  /** The case result, absent when not run. */
  result?: CaseResult;
  /** How the report's baseline excuses a failing case. */
  baseline?: 'known' | 'by-design';
  reason?: string;
}

export interface MatrixRow {
  id: string;
  area: string;
  kind: CaseResult['kind'];
  requirements: string[];
  since?: string;
  description?: string;
  cells: MatrixCell[];
}

/** A Summary of the cases that ran, plus those a report lacks. */
export interface Tally extends Summary {
  not_run: number;
  /** Cases that ran (neither skip nor not run). */
  ran: number;
  /** pass / ran; undefined when none ran. */
  score?: number;
}

export interface Matrix {
  columns: MatrixColumn[];
  rows: MatrixRow[];
  overall: Tally[];
  areas: Array<{ area: string; tallies: Tally[] }>;
  requirements: Array<{ id: string; cases: string[]; tallies: Tally[] }>;
}

/** `0.10.2` after `0.9.9`: numeric parts compared as numbers, anything else as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/);
  const pb = b.split(/[.+-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const d = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (d !== 0) return d;
  }
  return 0;
}

function tally(cells: readonly MatrixCell[]): Tally {
  const t: Tally = { pass: 0, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 0, not_run: 0, total: cells.length, ran: 0 };
  for (const c of cells) {
    if (c.status === NOT_RUN) t.not_run++;
    else t[c.status]++;
  }
  t.ran = t.total - t.skip - t.not_run;
  if (t.ran > 0) t.score = t.pass / t.ran;
  return t;
}

function cellOf(report: Report, c: CaseResult | undefined): MatrixCell {
  if (!c) return { status: NOT_RUN };
  const cell: MatrixCell = { status: c.status, result: c };
  if (isFailing(c) && report.baseline?.known.includes(c.id)) {
    cell.baseline = report.baseline.by_design?.includes(c.id) ? 'by-design' : 'known';
    const reason = report.baseline.notes?.[c.id]?.reason;
    if (reason !== undefined) cell.reason = reason;
  }
  return cell;
}

export function buildMatrix(inputs: readonly MatrixInput[]): Matrix {
  const columns: MatrixColumn[] = inputs.map(({ source, report: r }) => ({
    name: r.implementation.name,
    version: r.implementation.version,
    ...(r.implementation.language !== undefined ? { language: r.implementation.language } : {}),
    kit: r.kit.version,
    spec: r.kit.spec,
    ...(r.run?.spec !== undefined ? { casesSpec: r.run.spec } : {}),
    ...(r.run?.started_at !== undefined ? { date: r.run.started_at } : {}),
    ...(r.run?.adapter !== undefined ? { adapter: r.run.adapter } : {}),
    source,
    ...(r.run?.shard ? { shard: r.run.shard } : {}),
    ...(declaredConstants(r) ? { constants: declaredConstants(r)! } : {}),
    levels: levelsLine(r),
  }));
  const byCase = inputs.map(({ report }) => new Map(report.cases.map((c) => [c.id, c])));
  // A case's description and requirements from the newest kit that has it: cases only gain precision.
  const newestFirst = inputs.map((_, i) => i).sort((a, b) => compareVersions(inputs[b]!.report.kit.version, inputs[a]!.report.kit.version) || a - b);
  const ids = [...new Set(inputs.flatMap(({ report }) => report.cases.map((c) => c.id)))];
  const rows: MatrixRow[] = ids.map((id) => {
    // A flaky result also cites REQ-2, which is not what the case tests: another report's word is better.
    const having = newestFirst.map((i) => byCase[i]!.get(id)).filter((c): c is CaseResult => c !== undefined);
    const about = having.find((c) => c.status !== 'flaky') ?? having[0]!;
    return {
      id,
      area: areaOf(id),
      kind: about.kind,
      requirements: about.requirements,
      ...(about.kind === 'case' && about.since !== undefined ? { since: about.since } : {}),
      ...(about.description !== undefined ? { description: about.description } : {}),
      cells: inputs.map(({ report }, i) => cellOf(report, byCase[i]!.get(id))),
    };
  });
  rows.sort((a, b) => compareIds(a.area, b.area) || byId(a, b));
  const column = (rs: readonly MatrixRow[], i: number): Tally => tally(rs.map((r) => r.cells[i]!));
  const areaNames = [...new Set(rows.map((r) => r.area))];
  const reqs = new Map<string, MatrixRow[]>();
  for (const r of rows) for (const q of r.requirements) reqs.set(q, [...(reqs.get(q) ?? []), r]);
  return {
    columns,
    rows,
    overall: columns.map((_, i) => column(rows, i)),
    areas: areaNames.map((area) => {
      const rs = rows.filter((r) => r.area === area);
      return { area, tallies: columns.map((_, i) => column(rs, i)) };
    }),
    requirements: [...reqs]
      .sort(([a], [b]) => compareIds(a, b))
      .map(([id, rs]) => ({ id, cases: rs.map((r) => r.id), tallies: columns.map((_, i) => column(rs, i)) })),
  };
}

/** `12/14 (85%)`, or `n/a` when nothing ran. */
export function tallyText(t: Tally): string {
  return t.ran === 0 ? 'n/a' : `${t.pass}/${t.ran} (${wholePercent(t.score!)}%)`;
}

/** Whether the implementations that ran a case disagree on it (a skip or a not-run is no disagreement). */
export function disagrees(row: MatrixRow): boolean {
  return new Set(row.cells.filter((c) => c.status !== NOT_RUN && c.status !== 'skip').map((c) => c.status)).size > 1;
}

/** `name version` of a column (`, tiered with declared constants` when it was), with the source when two columns would read the same. */
export function columnLabels(columns: readonly MatrixColumn[]): string[] {
  const plain = columns.map((c) => `${c.name} ${c.version}${c.constants ? `, ${DECLARED_PROFILE}` : ''}`);
  return plain.map((p, i) => (plain.indexOf(p) !== plain.lastIndexOf(p) ? `${p} (${columns[i]!.source})` : p));
}

/** The JSON summary a site can consume (protocol/schemas/matrix.schema.json). */
export interface MatrixSummary {
  format: 'ctxconform-matrix';
  version: 1;
  generated_by: { name: 'ctxconform'; version: string };
  implementations: Array<Omit<MatrixColumn, 'casesSpec'> & { cases_spec?: string; label: string; summary: Tally }>;
  areas: Array<{ area: string; results: Tally[] }>;
  requirements: Array<{ id: string; cases: string[]; results: Tally[] }>;
  /** A row as the page shows it, each cell with the message in place of the whole result. */
  cases: Array<Omit<MatrixRow, 'cells'> & { results: Array<Omit<MatrixCell, 'result'> & { message?: string }> }>;
}

const MAX_SUMMARY_MESSAGE = 500;

export function matrixSummary(m: Matrix, kitVersion: string): MatrixSummary {
  const labels = columnLabels(m.columns);
  const clipMessage = (s: string): string => (s.length > MAX_SUMMARY_MESSAGE ? `${s.slice(0, MAX_SUMMARY_MESSAGE - 1)}…` : s);
  return {
    format: 'ctxconform-matrix',
    version: 1,
    generated_by: { name: 'ctxconform', version: kitVersion },
    implementations: m.columns.map(({ casesSpec, ...c }, i) => ({
      ...c,
      ...(casesSpec !== undefined ? { cases_spec: casesSpec } : {}),
      label: labels[i]!,
      summary: m.overall[i]!,
    })),
    areas: m.areas.map((a) => ({ area: a.area, results: a.tallies })),
    requirements: m.requirements.map((r) => ({ id: r.id, cases: r.cases, results: r.tallies })),
    cases: m.rows.map((r) => ({
      id: r.id,
      area: r.area,
      kind: r.kind,
      requirements: r.requirements,
      ...(r.since !== undefined ? { since: r.since } : {}),
      ...(r.description !== undefined ? { description: r.description } : {}),
      results: r.cells.map((c) => ({
        status: c.status,
        ...(c.result?.message !== undefined && c.status !== 'pass' ? { message: clipMessage(c.result.message) } : {}),
        ...(c.baseline !== undefined ? { baseline: c.baseline } : {}),
        ...(c.reason !== undefined ? { reason: c.reason } : {}),
      })),
    })),
  };
}

export function renderMatrixJson(m: Matrix, kitVersion: string): string {
  return JSON.stringify(matrixSummary(m, kitVersion), null, 2) + '\n';
}
