/**
 * Known failures. A baseline maps case ids to the status they are expected to
 * have, either as a bare status (`{"case-id": "fail"}`) or as an entry with
 * its why and the defect it accepts (`{"case-id": {"status": "fail", "kind":
 * "by-design", "reason": "...", "link": "...", "defect": {...}}}`,
 * protocol/schemas/baseline.schema.json), or is a previous JSON report (its
 * failing cases). Known failures do not fail a run; a failure of a baselined
 * id with another defect (vocabulary/defect.ts) is a new failure and does,
 * so a by-design entry cannot hide a new bug of the same case or property; a
 * baseline id whose case now passes is stale and fails it too, so a baseline
 * can only shrink. `by-design` entries are deliberate departures: reports
 * show them apart from the known bugs. An entry without a defect (a baseline
 * of a kit before keys) still matches by status alone, with a warning.
 */
import { readFileSync } from 'node:fs';
import { FAILING } from '../protocol/types.js';
import { formatErrors, validators } from '../protocol/schemas.js';
import { STATUSES } from '../protocol/types.js';
import type { BaselineNote, BaselineSummary, CaseResult, Defect, Report, ResultKind, Status } from '../protocol/types.js';
import { defectOf, sameDefect } from '../vocabulary/defect.js';
import { withLevel } from '../vocabulary/levels.js';

/** A file that is not a usable baseline or report: the message names the file and the member. */
export class ReportFileError extends Error {}

/** One baseline entry: the expected status, why, and the failure it accepts. */
export interface BaselineEntry extends BaselineNote {
  status: Status;
  /** Absent in entries of kits before keys: any failure with the status matches. */
  defect?: Defect;
}

/**
 * The key a failing result gets in a baseline: a golden case's differing
 * members (its request is fixed, and its matchers name what differs); a
 * property's, replayed request's or sweep's whole defect.
 */
export function entryKey(c: { kind: ResultKind; expected?: unknown; actual?: unknown; defect?: Defect }): Defect {
  const d = defectOf(c);
  if (c.kind === 'case') return { members: d.members };
  return d;
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
  // Reports of kits before --repeat have no flaky count, and those before levels no result kinds or levels.
  report.summary.flaky ??= 0;
  report.cases = report.cases.map(withLevel);
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
    for (const c of report.cases)
      if (FAILING.has(c.status)) out[c.id] = { status: c.status, ...(report.baseline?.notes?.[c.id] ?? { kind: 'bug' }), defect: entryKey(c) };
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
    const unknown = Object.keys(e).filter((k) => !['status', 'kind', 'reason', 'link', 'defect'].includes(k));
    if (unknown.length > 0) throw new ReportFileError(`${file}: ${at}: unknown member "${unknown[0]}" (an entry has status, kind, reason, link, defect)`);
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
      ...(e.defect !== undefined ? { defect: readDefect(file, `${at}/defect`, e.defect) } : {}),
    };
  }
  return out;
}

/** An entry's defect, checked member by member (the message names the member). */
function readDefect(file: string, at: string, value: unknown): Defect {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ReportFileError(`${file}: ${at}: must be an object {"members": [...], "paths": [...]}`);
  const d = value as Record<string, unknown>;
  const unknown = Object.keys(d).filter((k) => !['checks', 'members', 'paths', 'diagnosis'].includes(k));
  if (unknown.length > 0) throw new ReportFileError(`${file}: ${at}: unknown member "${unknown[0]}" (a defect has checks, members, paths, diagnosis)`);
  const strings = (k: string): string[] | undefined => {
    const v = d[k];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      throw new ReportFileError(`${file}: ${at}/${k}: must be an array of strings, got ${JSON.stringify(v)}`);
    return v as string[];
  };
  const members = strings('members');
  if (members === undefined) throw new ReportFileError(`${file}: ${at}: missing required member "members"`);
  const checks = strings('checks');
  const paths = strings('paths');
  if (d.diagnosis !== undefined && typeof d.diagnosis !== 'string')
    throw new ReportFileError(`${file}: ${at}/diagnosis: must be a string, got ${JSON.stringify(d.diagnosis)}`);
  return { ...(checks ? { checks } : {}), members, ...(paths ? { paths } : {}), ...(typeof d.diagnosis === 'string' ? { diagnosis: d.diagnosis } : {}) };
}

/** id -> expected status, from a baseline file or from a previous report's failing cases. */
export function loadBaseline(file: string): Record<string, Status> {
  const out: Record<string, Status> = Object.create(null) as Record<string, Status>;
  for (const [id, e] of Object.entries(loadBaselineEntries(file))) out[id] = e.status;
  return out;
}

export interface BaselineOutcome {
  report: Report;
  /** Failing cases the baseline does not expect (absent, expected with another status, or with another defect). */
  unexpected: CaseResult[];
  /** Of `unexpected`, those whose entry has their status but accepts another defect: new failures of a baselined id. */
  changed: Array<{ result: CaseResult; accepted: Defect; found: Defect }>;
  /** Baseline ids whose case now passes. */
  stale: string[];
  /** Known ids matched by an entry without a defect key (status alone). */
  unkeyed: string[];
}

/** The note worth carrying into the report: a by-design kind, or a reason or link. */
function noteOf(e: BaselineEntry): BaselineNote | undefined {
  if (e.kind === 'bug' && e.reason === undefined && e.link === undefined) return undefined;
  return { kind: e.kind, ...(e.reason !== undefined ? { reason: e.reason } : {}), ...(e.link !== undefined ? { link: e.link } : {}) };
}

/**
 * Apply a baseline to a report. A failing case is known only when the
 * baseline expects exactly its status (a `fail` that became a `crash` is news)
 * and, when the entry holds a defect, exactly that defect (another defect is
 * news too, whatever the entry's kind: a by-design departure excuses itself,
 * not a new bug in the same property). Baseline ids the run did not include
 * (another shard, a filter, a skip) are neither known nor stale; an entry
 * whose case passes is stale, a by-design one too: the departure is gone.
 */
export function applyBaseline(report: Report, baselineFile: string): BaselineOutcome {
  const expected = loadBaselineEntries(baselineFile);
  const known: string[] = [];
  const stale: string[] = [];
  const byDesign: string[] = [];
  const unkeyed: string[] = [];
  const notes: Record<string, BaselineNote> = {};
  const unexpected: CaseResult[] = [];
  const changed: BaselineOutcome['changed'] = [];
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
      if (want.defect !== undefined) {
        const found = entryKey(c);
        if (!sameDefect(want.defect, found)) {
          unexpected.push(c);
          changed.push({ result: c, accepted: want.defect, found });
          continue;
        }
      } else unkeyed.push(c.id);
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
  if (changed.length > 0) summary.changed = changed.map((x) => x.result.id);
  if (unkeyed.length > 0) summary.unkeyed = unkeyed;
  return { report: { ...report, baseline: summary }, unexpected, changed, stale, unkeyed };
}

export interface BaselineUpdate {
  entries: Record<string, BaselineEntry>;
  /** Failing cases the baseline did not have. */
  added: string[];
  /** Entries whose case fails with another status now. */
  changed: string[];
  /** Entries whose failure is another defect now: written as new bug entries, their old reason not carried over. */
  redefined: string[];
  /** Entries without a defect key that got the key of the failure the report shows. */
  rekeyed: string[];
  /** Entries whose case now passes. */
  removed: string[];
  /** Entries the report says nothing about (not run, skipped): kept as they were. */
  untouched: string[];
}

/**
 * The baseline a report calls for, from the one there was: every failing case
 * with its status and defect, keeping the kind, reason and link of the
 * entries it had when the failure is still the one they accept; an entry
 * whose failure is now another defect becomes a new bug entry (a by-design
 * reason describes a departure, not whatever fails next), an entry without a
 * key gets the key of the failure shown; entries whose case now passes
 * dropped; entries of cases the report did not run (or skipped) kept. New
 * entries are bugs without a reason.
 */
export function updateBaseline(previous: Record<string, BaselineEntry>, report: Report): BaselineUpdate {
  const byId = new Map(report.cases.map((c) => [c.id, c]));
  const entries: Record<string, BaselineEntry> = {};
  const u: BaselineUpdate = { entries, added: [], changed: [], redefined: [], rekeyed: [], removed: [], untouched: [] };
  for (const c of report.cases) {
    if (!FAILING.has(c.status)) continue;
    const old = Object.hasOwn(previous, c.id) ? previous[c.id] : undefined;
    const defect = entryKey(c);
    if (!old) {
      u.added.push(c.id);
      entries[c.id] = { kind: 'bug', status: c.status, defect };
      continue;
    }
    if (old.status !== c.status) u.changed.push(c.id);
    if (old.defect !== undefined && !sameDefect(old.defect, defect)) {
      u.redefined.push(c.id);
      entries[c.id] = { kind: 'bug', status: c.status, defect };
      continue;
    }
    if (old.defect === undefined) u.rekeyed.push(c.id);
    entries[c.id] = { ...old, status: c.status, defect: old.defect ?? defect };
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
    sorted[id] = {
      status: e.status,
      kind: e.kind,
      ...(e.reason !== undefined ? { reason: e.reason } : {}),
      ...(e.link !== undefined ? { link: e.link } : {}),
      ...(e.defect !== undefined ? { defect: orderedDefect(e.defect) } : {}),
    };
  }
  u.entries = sorted;
  return u;
}

function orderedDefect(d: Defect): Defect {
  return {
    ...(d.checks !== undefined ? { checks: d.checks } : {}),
    members: d.members,
    ...(d.paths !== undefined ? { paths: d.paths } : {}),
    ...(d.diagnosis !== undefined ? { diagnosis: d.diagnosis } : {}),
  };
}

/** A baseline file's text: one entry per case id, sorted. */
export function formatBaseline(entries: Record<string, BaselineEntry>): string {
  return JSON.stringify(entries, null, 2) + '\n';
}
