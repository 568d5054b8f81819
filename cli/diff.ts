/**
 * `ctxconform diff OLD.json NEW.json`: what changed between two runs. Exits 1
 * when a case that passed no longer does, so CI can gate on "no regressions"
 * while known failures remain.
 */
import { parseArgs } from 'node:util';
import { readReport, ReportFileError } from '../judging/baseline.js';
import { byId } from '../protocol/types.js';
import type { Report, Status } from '../protocol/types.js';
import { UsageError } from './usage.js';
import { constantsText, stripAnsi } from '../report/text.js';
import { DECLARED_PROFILE } from '../protocol/verdict.js';
import { terminalValue } from '../report/terminal.js';
import { out } from './output.js';

export const usage = 'ctxconform diff OLD.json NEW.json [--json]';

export interface Change {
  id: string;
  from: Status;
  to: Status;
  message?: string;
}

export interface ReportDiff {
  /** Was not pass, now pass. */
  fixed: Change[];
  /** Was pass, now anything else (a pass that became a skip is a loss of coverage, so it counts). */
  regressed: Change[];
  /** Not pass before and after, with a different status (fail -> crash, skip -> fail, ...). */
  changed: Change[];
  /** Only in NEW. */
  added: Array<{ id: string; status: Status }>;
  /** Only in OLD. */
  removed: Array<{ id: string; status: Status }>;
  unchanged: number;
}

export function diffReports(before: Report, after: Report): ReportDiff {
  const old = new Map(before.cases.map((c) => [c.id, c]));
  const now = new Map(after.cases.map((c) => [c.id, c]));
  const d: ReportDiff = { fixed: [], regressed: [], changed: [], added: [], removed: [], unchanged: 0 };
  for (const [id, c] of now) {
    const o = old.get(id);
    if (!o) {
      d.added.push({ id, status: c.status });
      continue;
    }
    const change: Change = { id, from: o.status, to: c.status, ...(c.message !== undefined && c.status !== 'pass' ? { message: c.message } : {}) };
    if (o.status === c.status) d.unchanged++;
    else if (c.status === 'pass') d.fixed.push(change);
    else if (o.status === 'pass') d.regressed.push(change);
    else d.changed.push(change);
  }
  for (const [id, o] of old) if (!now.has(id)) d.removed.push({ id, status: o.status });
  for (const list of [d.fixed, d.regressed, d.changed, d.added, d.removed]) list.sort(byId);
  return d;
}

export function formatDiff(d: ReportDiff, before: Report, after: Report): string {
  const out: string[] = [];
  // Two runs judged with different constants differ for that reason alone: the names say so (SPEC section 17).
  const name = (r: Report): string =>
    `${terminalValue(`${r.implementation.name} ${r.implementation.version}`)} (kit ` +
    `${terminalValue(r.kit.version)}${r.run?.constants ? `; ${DECLARED_PROFILE}: ${constantsText(r.run.constants)}` : ''})`;
  out.push(`old: ${name(before)}: ${before.summary.pass}/${before.summary.total} pass`);
  out.push(`new: ${name(after)}: ${after.summary.pass}/${after.summary.total} pass`);
  const section = (title: string, lines: string[]): void => {
    if (lines.length === 0) return;
    out.push('', `${title} (${lines.length}):`, ...lines.map((l) => `  ${l}`));
  };
  const firstLine = (m?: string): string => (m ? `: ${terminalValue(stripAnsi(m.split('\n')[0]!))}` : '');
  const id = terminalValue;
  section(
    'regressed',
    d.regressed.map((c) => `${id(c.id)}  ${c.from} -> ${c.to}${firstLine(c.message)}`),
  );
  section(
    'fixed',
    d.fixed.map((c) => `${id(c.id)}  ${c.from} -> ${c.to}`),
  );
  section(
    'changed',
    d.changed.map((c) => `${id(c.id)}  ${c.from} -> ${c.to}${firstLine(c.message)}`),
  );
  section(
    'new',
    d.added.map((c) => `${id(c.id)}  ${c.status}`),
  );
  section(
    'removed',
    d.removed.map((c) => `${id(c.id)}  was ${c.status}`),
  );
  out.push(
    '',
    `${d.regressed.length} regressed, ${d.fixed.length} fixed, ${d.changed.length} changed, ${d.added.length} new, ${d.removed.length} removed, ${d.unchanged} unchanged`,
  );
  return out.join('\n');
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    out(
      `usage: ${usage}\n\nCompares two JSON reports case by case: regressed (was pass), fixed (now pass),\n` +
        `changed (another non-pass status), new and removed cases.\n--json prints the comparison as JSON.\nExit status: 1 when any case regressed, else 0.`,
    );
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError(`expected two report files, got ${positionals.length}\nusage: ${usage}`);
  let before: Report;
  let after: Report;
  try {
    before = readReport(positionals[0]!);
    after = readReport(positionals[1]!);
  } catch (e) {
    if (e instanceof ReportFileError) throw new UsageError(e.message);
    throw e;
  }
  const d = diffReports(before, after);
  out(values.json ? JSON.stringify(d, null, 2) : formatDiff(d, before, after));
  return d.regressed.length > 0 ? 1 : 0;
}
