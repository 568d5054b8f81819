/**
 * What `ctxconform run` prints: a progress line (redrawn on a terminal, plain
 * lines in CI logs), every failure with what it takes to act on it, and a
 * summary table. Text from implementations is hostile: escapes are stripped.
 */
import { constantsText, shownStatuses, stripAnsi } from '../report/text.js';
import { profileNames } from '../protocol/verdict.js';
import { textTable } from '../report/text-table.js';
import { visible } from '../report/visible.js';
import { inFlightNote, shownOf } from '../report/shown.js';
import type { Shown } from '../report/shown.js';
import { terminalValue } from '../report/terminal.js';
import { compact } from '../judging/judge.js';
import { firstDifference } from '../vocabulary/first-difference.js';
import { STATUSES } from '../protocol/types.js';
import type { CaseResult, Report, Status } from '../protocol/types.js';

/** A word for a POSIX shell: rerun commands are pasted into one. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface ProgressSink {
  update(done: number, total: number, current: string): void;
  end(): void;
}

/** Draw `text` over the terminal's current line, cut to its width. */
export function redrawLine(stream: NodeJS.WriteStream, text: string): void {
  const width = (stream.columns ?? 100) - 1;
  const shown = terminalValue(text);
  stream.write(`\r\u001b[2K${shown.length > width ? shown.slice(0, width - 1) + '…' : shown}`);
}

/** Clear the line redrawLine drew. */
export function clearLine(stream: NodeJS.WriteStream): void {
  stream.write('\r\u001b[2K');
}

/** Redrawn line on a TTY; otherwise a line at every tenth of the run, so CI logs stay short. */
export function progress(stream: NodeJS.WriteStream, interactive: boolean): ProgressSink {
  let lastStep = 0;
  let drawn = false;
  return {
    update(done, total, current) {
      if (interactive) {
        redrawLine(stream, `[${String(done).padStart(String(total).length)}/${total}] ${current}`);
        drawn = true;
        return;
      }
      const step = total === 0 ? 10 : Math.floor((done * 10) / total);
      if (step !== lastStep && (done > 0 || current === '')) {
        lastStep = step;
        stream.write(`progress: ${done}/${total}${current ? ` (${terminalValue(current)})` : ''}\n`);
      }
    },
    end() {
      if (interactive && drawn) clearLine(stream);
    },
  };
}

function indent(s: string, by = '    '): string {
  return s
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}

/** The last lines of an implementation's stderr, with the note on whose lines they may be when other requests were in flight. */
export function stderrTail(stderr: string, lines = 8, inFlight = 0): string {
  const all = stripAnsi(stderr).trimEnd().split('\n');
  const note = inFlight > 0 ? inFlightNote(inFlight) : undefined;
  const tail = all.slice(-lines);
  return [...(note !== undefined ? [note, ...(all.length > lines ? ['…'] : [])] : []), ...tail].join('\n');
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** What a reader needs of the request to follow a failure: its budget and block count, and `now` where expiry is in play. */
function requestLine(c: Pick<Shown, 'request' | 'counterexample'> & Pick<CaseResult, 'requirements'>): string | undefined {
  const r = c.request ?? c.counterexample;
  if (!isObject(r)) return undefined;
  const parts: string[] = [];
  if (r.budget !== undefined) parts.push(`budget ${compact(r.budget, 40)}`);
  const blocks = Array.isArray(r.blocks) ? r.blocks : undefined;
  if (blocks) parts.push(`${blocks.length} block${blocks.length === 1 ? '' : 's'}`);
  const expiry =
    c.requirements.some((id) => /^(EXP|RANK-6)/.test(id)) ||
    (blocks ?? []).some((b) => isObject(b) && (b.ttl_seconds !== undefined || b.created_at !== undefined));
  if (expiry && r.now !== undefined) parts.push(`now ${compact(r.now, 40)}`);
  return parts.length > 0 ? `request: ${parts.join(', ')}` : undefined;
}

/** What a result tests and, apart, what its answer broke: "  tests: ANY-6, ANY-12  broke: ANY-1"; without `broke`, its requirements in brackets. */
function requirementsText(c: Pick<CaseResult, 'requirements' | 'broke'>): string {
  const broke = c.broke ?? [];
  if (broke.length === 0) return c.requirements.length ? `  [${terminalValue(c.requirements.join(', '))}]` : '';
  // A tiered case judged by the principles speaks for what it broke (LVL-3): nothing apart to say.
  const same = c.requirements.length === broke.length && c.requirements.every((id) => broke.includes(id));
  return `  ${same ? '' : `tests: ${terminalValue(c.requirements.join(', '))}  `}broke: ${terminalValue(broke.join(', '))}`;
}

/** One failure: id, requirements, its description and request, the message (the judge's compact diff per member), expected/actual, stderr, rerun. Invisible characters are shown escaped. */
export function formatFailure(c: CaseResult): string {
  const x = shownOf(c);
  const lines = [`${c.status.toUpperCase()} ${terminalValue(c.id)}${requirementsText(c)}`];
  // What the case is about, and the budget it was judged at: the first two things a reader asks.
  if (c.description) {
    const first = stripAnsi(c.description).trim().split('\n')[0]!;
    lines.push(indent(first.length > 200 ? `${first.slice(0, 199)}…` : first));
  }
  const request = requestLine({ ...x, requirements: c.requirements });
  if (request) lines.push(indent(request));
  if (c.message) lines.push(indent(stripAnsi(c.message)));
  // A `fail` message is already the judge's compact diff, member by member; other statuses show what came back.
  if (c.status !== 'fail' && x.actual !== undefined) {
    lines.push(indent(`got: ${stripAnsi(compact(x.actual, 400))}`));
  } else if (c.status === 'fail' && !c.message && (x.expected !== undefined || x.actual !== undefined)) {
    if (typeof x.expected === 'string' && typeof x.actual === 'string') lines.push(indent(firstDifference(x.expected, x.actual)));
    else lines.push(indent(`expected ${stripAnsi(compact(x.expected, 400))}, got ${stripAnsi(compact(x.actual, 400))}`));
  }
  if (x.counterexample !== undefined) {
    // A replayed or swept request, or a contract scenario, has no fast-check path (or no seed).
    const where = [x.seed !== undefined ? `seed ${x.seed}` : '', x.path ? `path ${x.path}` : ''].filter(Boolean).join(', ');
    lines.push(indent(`counterexample${where ? ` (${where})` : ''}: ${compact(x.counterexample, 400)}`));
  }
  if (x.stderr) lines.push(indent(`stderr (tail):\n${indent(stderrTail(x.stderr, 8, x.stderrInFlight), '  ')}`));
  if (c.rerun) lines.push(indent(`rerun: ${c.rerun}`));
  return visible(lines.join('\n'));
}

/** Statuses per area (first id segment), then the total. */
/** What ran, first on the terminal: the implementation, how it was reached, and what it declares (declared constants on a line of their own). */
export function implementationLine(report: Report, adapter: string, target: string): string {
  const m = report.implementation;
  const line = terminalValue(
    `${m.name} ${m.version} via ${adapter} (${target}); profiles [${profileNames(report).join(', ')}], capabilities [${m.capabilities.join(', ')}]`,
  );
  const constants = report.run?.constants;
  return constants ? `${line}\ndeclared constants: ${constantsText(constants)} (SPEC section 17: judged against the reference computed with them)` : line;
}

export function summaryTable(report: Report): string {
  const areas = new Map<string, Record<Status, number>>();
  for (const c of report.cases) {
    const area = terminalValue(c.id.includes('/') ? c.id.slice(0, c.id.indexOf('/')) : c.id);
    let row = areas.get(area);
    if (!row) {
      row = Object.fromEntries(STATUSES.map((k) => [k, 0])) as Record<Status, number>;
      areas.set(area, row);
    }
    row[c.status]++;
  }
  const shown = shownStatuses(report);
  const s = report.summary;
  const rows = [
    ['area', ...shown, 'total'],
    ...[...areas].map(([area, r]) => [area, ...shown.map((k) => String(r[k])), String(STATUSES.reduce((n, k) => n + r[k], 0))]),
    ['all', ...shown.map((k) => String(s[k])), String(s.total)],
  ];
  return textTable(rows, { right: shown.map((_, i) => i + 1).concat(shown.length + 1), rules: [1, rows.length - 1] });
}
