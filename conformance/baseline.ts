/**
 * Known failures. A baseline maps case ids to the status they are expected to
 * have (`{"case-id": "fail"}`), or is a previous JSON report (its failing
 * cases). Known failures do not fail a run; a baseline id whose case now
 * passes is stale and does fail it, so a baseline can only shrink.
 */
import { readFileSync } from 'node:fs';
import { FAILING } from '../report/text.js';
import { formatErrors, validators } from './schemas.js';
import { STATUSES } from './types.js';
import type { CaseResult, Report, Status } from './types.js';

/** A file that is not a usable baseline or report: the message names the file and the member. */
export class ReportFileError extends Error {}

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
  return value as Report;
}

/** A JSON report, checked against report.schema.json. */
export function readReport(file: string): Report {
  return asReport(file, readJson(file));
}

/** id -> expected status, from a `{"id": "status"}` map or from a previous report's failing cases. */
export function loadBaseline(file: string): Record<string, Status> {
  const value = readJson(file);
  if (looksLikeReport(value)) {
    const report = asReport(file, value);
    const out: Record<string, Status> = {};
    for (const c of report.cases) if (FAILING.has(c.status)) out[c.id] = c.status;
    return out;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ReportFileError(`${file}: a baseline is an object {"case-id": "fail", ...} or a JSON report`);
  }
  const out: Record<string, Status> = Object.create(null) as Record<string, Status>;
  for (const [id, status] of Object.entries(value)) {
    if (typeof status !== 'string' || !FAILING.has(status as Status)) {
      const allowed = STATUSES.filter((s) => FAILING.has(s)).join(', ');
      throw new ReportFileError(`${file}: /${id.replaceAll('~', '~0').replaceAll('/', '~1')}: expected status must be one of ${allowed}, got ${JSON.stringify(status)}`);
    }
    out[id] = status as Status;
  }
  return out;
}

export interface BaselineOutcome {
  report: Report;
  /** Failing cases the baseline does not expect (absent, or expected with another status). */
  unexpected: CaseResult[];
  /** Baseline ids whose case now passes. */
  stale: string[];
}

/**
 * Apply a baseline to a report. A failing case is known only when the
 * baseline expects exactly its status (a `fail` that became a `crash` is news).
 * Baseline ids the run did not include (another shard, a filter, a skip) are
 * neither known nor stale.
 */
export function applyBaseline(report: Report, baselineFile: string): BaselineOutcome {
  const expected = loadBaseline(baselineFile);
  const known: string[] = [];
  const stale: string[] = [];
  const unexpected: CaseResult[] = [];
  for (const c of report.cases) {
    const want = Object.hasOwn(expected, c.id) ? expected[c.id] : undefined;
    if (FAILING.has(c.status)) {
      if (want === c.status) known.push(c.id);
      else unexpected.push(c);
    } else if (c.status === 'pass' && want !== undefined) {
      stale.push(c.id);
    }
  }
  return { report: { ...report, baseline: { file: baselineFile, known, stale } }, unexpected, stale };
}
