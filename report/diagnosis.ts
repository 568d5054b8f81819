/**
 * What the report writers read of a report's `diagnosis` (docs/diagnosis.md)
 * besides its entries: the failing results it read that none of them explains. A sweep's
 * results are its budgets (`sweep/SOURCE@BUDGET`), so its one result counts as
 * explained when a cause explains any of them.
 */
import { FAILING } from '../protocol/types.js';
import type { Report } from '../protocol/types.js';

/** The listed failing results no diagnosed cause explains; empty without a diagnosis. */
export function unexplainedFailures(report: Report): string[] {
  if (!report.diagnosis) return [];
  const explained = new Set(report.diagnosis.flatMap((c) => c.explained ?? []));
  const budgets = [...explained].filter((id) => id.includes('@')).map((id) => id.slice(0, id.lastIndexOf('@')));
  for (const id of budgets) explained.add(id);
  const failing = report.cases.filter((c) => FAILING.has(c.status));
  // A replay's diagnosis reads the first failing results in file order, the order the report
  // lists them in (docs/diagnosis.md): of those past the ones it read it says nothing.
  const read = failing.slice(0, report.diagnosis[0]?.failing ?? failing.length);
  return read.filter((c) => !explained.has(c.id)).map((c) => c.id);
}

/** "explains 19 of 23 failures". */
export function explainsText(c: { explains: number; failing: number }): string {
  return `explains ${c.explains} of ${c.failing} failure${c.failing === 1 ? '' : 's'}`;
}

/**
 * Whether a known defect leads the likely cause: it explains more than half of the failures
 * once the passing answers it contradicts are taken off, so a model that matches some answers
 * and contradicts as many never stands first.
 */
export function knownDefectLeads(first: { explains: number; contradicts: number; failing: number } | undefined): boolean {
  return first !== undefined && (first.explains - first.contradicts) * 2 > first.failing;
}

/** Whether the broken principles lead the likely cause: no known defect leads it (knownDefectLeads). */
export function principlesLead(report: Report): boolean {
  return (report.principles ?? []).length > 0 && !knownDefectLeads(report.diagnosis?.[0]);
}

/** The likely cause in one line, leading part first: what a JUnit property or a summary can hold. */
export function likelyCauseLine(report: Report): string | undefined {
  if (!report.diagnosis) return undefined;
  const principles = (report.principles ?? []).map((p) => `${p.summary} (${p.requirement}): ${explainsText(p)}`);
  const causes = report.diagnosis.map((c) => `${c.id.replace('+', ' + ')} [${c.requirements.join(', ')}]: ${explainsText(c)}`);
  const parts = principlesLead(report) ? [...principles, ...causes] : [...causes, ...principles];
  return parts.length > 0 ? parts.join('; ') : 'none of the known defects reproduces the failing answers exactly';
}
