/**
 * Known failures. A baseline maps case ids to the status they are expected to
 * have, either as a bare status (`{"case-id": "fail"}`) or as an entry with
 * its why (`{"case-id": {"status": "fail", "kind": "by-design", "reason":
 * "...", "link": "..."}}`, protocol/schemas/baseline.schema.json), or is a
 * previous JSON report (its failing cases). Known failures do not fail a run;
 * a baseline id whose case now passes is stale and does fail it, so a
 * baseline can only shrink. `by-design` entries are deliberate departures:
 * reports show them apart from the known bugs.
 */
import { readFileSync } from 'node:fs';
import { FAILING } from '../report/text.js';
import { formatErrors, validators } from '../protocol/schemas.js';
import { STATUSES } from '../protocol/types.js';
import type { BaselineNote, BaselineSummary, CaseResult, Report, Status } from '../protocol/types.js';

/** A file that is not a usable baseline or report: the message names the file and the member. */
export class ReportFileError extends Error {}

/** One baseline entry: the expected status and why. */
export interface BaselineEntry extends BaselineNote {
  status: Status;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ReportFileError(`${file}: cannot read: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ReportFileError(`${file}: not JSON: ${(e as Error).message}`);
  }
}

function looksLikeReport(x: unknown): boolean {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && 'cases' in x && 'summary' in x;
}

function asReport(file: string, value: unknown): Report {
  const valid = validators.report();
  if (!valid(value)) throw new ReportFileError(`${file}: not a ctxconform JSON report: ${formatErrors(valid.errors).slice(0, 5).join('; ')}`);
  const report = value as Report;
  // Reports of kits before --repeat have no flaky count.
  report.summary.flaky ??= 0;
  return report;
}

/** A JSON report, checked against report.schema.json. */
export function readReport(file: string): Report {
  return asReport(file, readJson(file));
}

const pointer = (id: string): string => `/${id.replaceAll('~', '~0').replaceAll('/', '~1')}`;

/** id -> entry, from a baseline file or from a previous report's failing cases (with the notes its own baseline gave them). */
export function loadBaselineEntries(file: string): Record<string, BaselineEntry> {
  const value = readJson(file);
  const out: Record<string, BaselineEntry> = Object.create(null) as Record<string, BaselineEntry>;
  if (looksLikeReport(value)) {
    const report = asReport(file, value);
    for (const c of report.cases) if (FAILING.has(c.status)) out[c.id] = { status: c.status, ...(report.baseline?.notes?.[c.id] ?? { kind: 'bug' }) };
    return out;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ReportFileError(`${file}: a baseline is an object {"case-id": "fail", ...} or a JSON report`);
  }
  const allowed = STATUSES.filter((s) => FAILING.has(s)).join(', ');
  const checkStatus = (at: string, status: unknown): Status => {
    if (typeof status !== 'string' || !FAILING.has(status as Status)) {
      throw new ReportFileError(`${file}: ${at}: expected status must be one of ${allowed}, got ${JSON.stringify(status)}`);
    }
    return status as Status;
  };
  for (const [id, entry] of Object.entries(value)) {
    if (id === '$schema') continue;
    const at = pointer(id);
    if (typeof entry === 'string' || typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      out[id] = { status: checkStatus(at, entry), kind: 'bug' };
      continue;
    }
    const e = entry as Record<string, unknown>;
    const unknown = Object.keys(e).filter((k) => !['status', 'kind', 'reason', 'link'].includes(k));
    if (unknown.length > 0) throw new ReportFileError(`${file}: ${at}: unknown member "${unknown[0]}" (an entry has status, kind, reason, link)`);
    const status = checkStatus(`${at}/status`, e.status);
    if (e.kind !== undefined && e.kind !== 'bug' && e.kind !== 'by-design') {
      throw new ReportFileError(`${file}: ${at}/kind: must be "bug" or "by-design", got ${JSON.stringify(e.kind)}`);
    }
    for (const k of ['reason', 'link'] as const) {
      if (e[k] !== undefined && typeof e[k] !== 'string') throw new ReportFileError(`${file}: ${at}/${k}: must be a string, got ${JSON.stringify(e[k])}`);
    }
    out[id] = {
      status,
      kind: (e.kind as BaselineNote['kind'] | undefined) ?? 'bug',
      ...(typeof e.reason === 'string' ? { reason: e.reason } : {}),
      ...(typeof e.link === 'string' ? { link: e.link } : {}),
    };
  }
  return out;
}

/** id -> expected status, from a baseline file or from a previous report's failing cases. */
export function loadBaseline(file: string): Record<string, Status> {
  const out: Record<string, Status> = Object.create(null) as Record<string, Status>;
  for (const [id, e] of Object.entries(loadBaselineEntries(file))) out[id] = e.status;
  return out;
}

export interface BaselineOutcome {
  report: Report;
  /** Failing cases the baseline does not expect (absent, or expected with another status). */
  unexpected: CaseResult[];
  /** Baseline ids whose case now passes. */
  stale: string[];
}

/** The note worth carrying into the report: a by-design kind, or a reason or link. */
function noteOf(e: BaselineEntry): BaselineNote | undefined {
  if (e.kind === 'bug' && e.reason === undefined && e.link === undefined) return undefined;
  return { kind: e.kind, ...(e.reason !== undefined ? { reason: e.reason } : {}), ...(e.link !== undefined ? { link: e.link } : {}) };
}

/**
 * Apply a baseline to a report. A failing case is known only when the
 * baseline expects exactly its status (a `fail` that became a `crash` is news),
 * whatever the entry's kind. Baseline ids the run did not include (another
 * shard, a filter, a skip) are neither known nor stale; an entry whose case
 * passes is stale, a by-design one too: the departure is gone.
 */
export function applyBaseline(report: Report, baselineFile: string): BaselineOutcome {
  const expected = loadBaselineEntries(baselineFile);
  const known: string[] = [];
  const stale: string[] = [];
  const byDesign: string[] = [];
  const notes: Record<string, BaselineNote> = {};
  const unexpected: CaseResult[] = [];
  const noted = (id: string, want: BaselineEntry): void => {
    const note = noteOf(want);
    if (note) notes[id] = note;
  };
  for (const c of report.cases) {
    const want = Object.hasOwn(expected, c.id) ? expected[c.id] : undefined;
    if (FAILING.has(c.status)) {
      if (want?.status !== c.status) {
        unexpected.push(c);
        continue;
      }
      known.push(c.id);
      if (want.kind === 'by-design') byDesign.push(c.id);
      noted(c.id, want);
    } else if (c.status === 'pass' && want !== undefined) {
      stale.push(c.id);
      noted(c.id, want);
    }
  }
  const summary: BaselineSummary = { file: baselineFile, known, stale };
  if (byDesign.length > 0) summary.by_design = byDesign;
  if (Object.keys(notes).length > 0) summary.notes = notes;
  return { report: { ...report, baseline: summary }, unexpected, stale };
}

export interface BaselineUpdate {
  entries: Record<string, BaselineEntry>;
  /** Failing cases the baseline did not have. */
  added: string[];
  /** Entries whose case fails with another status now. */
  changed: string[];
  /** Entries whose case now passes. */
  removed: string[];
  /** Entries the report says nothing about (not run, skipped): kept as they were. */
  untouched: string[];
}

/**
 * The baseline a report calls for, from the one there was: every failing case
 * with its status, keeping the kind, reason and link of the entries it had;
 * entries whose case now passes dropped; entries of cases the report did not
 * run (or skipped) kept. New entries are bugs without a reason.
 */
export function updateBaseline(previous: Record<string, BaselineEntry>, report: Report): BaselineUpdate {
  const byId = new Map(report.cases.map((c) => [c.id, c]));
  const entries: Record<string, BaselineEntry> = {};
  const u: BaselineUpdate = { entries, added: [], changed: [], removed: [], untouched: [] };
  for (const c of report.cases) {
    if (!FAILING.has(c.status)) continue;
    const old = Object.hasOwn(previous, c.id) ? previous[c.id] : undefined;
    if (!old) u.added.push(c.id);
    else if (old.status !== c.status) u.changed.push(c.id);
    entries[c.id] = { ...(old ?? { kind: 'bug' }), status: c.status };
  }
  for (const [id, old] of Object.entries(previous)) {
    const c = byId.get(id);
    if (c === undefined || c.status === 'skip') {
      entries[id] = old;
      u.untouched.push(id);
    } else if (c.status === 'pass') u.removed.push(id);
  }
  const sorted: Record<string, BaselineEntry> = {};
  for (const id of Object.keys(entries).sort()) {
    const e = entries[id]!;
    // Members in a fixed order, so the file diffs well.
    sorted[id] = { status: e.status, kind: e.kind, ...(e.reason !== undefined ? { reason: e.reason } : {}), ...(e.link !== undefined ? { link: e.link } : {}) };
  }
  u.entries = sorted;
  return u;
}

/** A baseline file's text: one entry per case id, sorted. */
export function formatBaseline(entries: Record<string, BaselineEntry>): string {
  return JSON.stringify(entries, null, 2) + '\n';
}
