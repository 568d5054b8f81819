/**
 * What a run's closing line says about the contract clauses no exchange
 * tested, and `--require-tested`: a CI gate that insists a clause was really
 * put to the test (an untested clause is `skip`, which alone fails nothing).
 * Pure: the contract command only applies what this decides.
 */
import { summarize } from '../protocol/types.js';
import type { CaseResult, Report } from '../protocol/types.js';
import { CONTRACT_LEVEL } from '../vocabulary/levels.js';
import { CLAUSES } from './clauses.js';

/** `all`, or the MAPI ids a run must have tested. */
export type RequireTested = 'all' | readonly string[];

const clauseId = (c: CaseResult): string | undefined => c.requirements.find((id) => id.startsWith('MAPI-'));

/** A `requireTested` value read, or the problem with it (said after the option's name): `all`, or MAPI ids and `contract/<name>` ids, comma-separated. */
export function parseRequireTested(value: string): { required: RequireTested } | { problem: string } {
  if (value.trim() === 'all') return { required: 'all' };
  const ids: string[] = [];
  for (const raw of value.split(',').map((x) => x.trim())) {
    const c = CLAUSES.find((k) => k.id === raw.toUpperCase() || `contract/${k.name}` === raw);
    if (!c)
      return {
        problem: `takes all, or clause ids from ${CLAUSES[0].id} to ${CLAUSES.at(-1)!.id} (or contract/<name>), comma-separated, not ${JSON.stringify(raw)}`,
      };
    if (!ids.includes(c.id)) ids.push(c.id);
  }
  return { required: ids };
}

/** The clauses the run reported untested (`skip`: no exchange met their needs), in clause order. */
export function untestedClauses(cases: readonly CaseResult[]): string[] {
  return cases.filter((c) => c.kind === 'contract' && c.status === 'skip').flatMap((c) => clauseId(c) ?? []);
}

export interface ContractGate {
  untested: string[];
  /** Required clauses that were untested, or not run at all (left out by --filter). */
  failing: string[];
  notRun: string[];
  /** Added to the closing line: `; untested: MAPI-11`. */
  suffix: string;
}

export function contractGate(report: Report, required: RequireTested | undefined): ContractGate {
  const untested = untestedClauses(report.cases);
  const run = new Set(report.cases.filter((c) => c.kind === 'contract').flatMap((c) => clauseId(c) ?? []));
  const wanted = required === undefined ? [] : required === 'all' ? CLAUSES.map((c) => c.id) : required;
  const notRun = wanted.filter((id) => !run.has(id));
  const failing = wanted.filter((id) => untested.includes(id) || !run.has(id));
  const parts = [untested.length ? `untested: ${untested.join(', ')}` : '', notRun.length ? `not run: ${notRun.join(', ')}` : ''].filter(Boolean);
  return { untested, failing, notRun, suffix: parts.length ? `; ${parts.join('; ')}` : '' };
}

/**
 * The report under `--require-tested`: a required clause that no exchange
 * tested is a failure, and so is one the run left out, so the reports and the
 * terminal give the same verdict as the exit status (SPEC section 16).
 */
export function requireTestedResults(report: Report, gate: ContractGate): Report {
  if (gate.failing.length === 0) return report;
  const failing = new Set(gate.failing);
  const cases = report.cases.map((c): CaseResult => {
    const id = clauseId(c);
    if (c.kind !== 'contract' || id === undefined || !failing.has(id) || c.status !== 'skip') return c;
    return { ...c, status: 'fail', message: `${id} is required by --require-tested, and no exchange tested it: ${c.message ?? ''}`.trimEnd() };
  });
  for (const id of gate.notRun) {
    const clause = CLAUSES.find((k) => k.id === id)!;
    cases.push({
      id: `contract/${clause.name}`,
      kind: 'contract',
      level: CONTRACT_LEVEL,
      status: 'fail',
      requirements: [id],
      description: clause.description,
      duration_ms: 0,
      message: `${id} is required by --require-tested, and the run left it out (--filter): not run`,
    });
  }
  return { ...report, cases, summary: summarize(cases) };
}
