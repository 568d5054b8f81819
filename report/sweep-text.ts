/**
 * What a sweep found, in the words every writer uses (the terminal, the HTML
 * and Markdown reports). An interrupted sweep says how far it got and claims
 * nothing past it: agreement at the budgets it swept is not agreement at
 * every budget.
 */
import type { BudgetIntervals, SweepInfo } from '../protocol/types.js';

const intervals = (xs: BudgetIntervals): string => xs.map(([a, b]) => (a === b ? `${a}` : `${a}..${b}`)).join(', ');

/** "877 of 4000 budgets swept before the interrupt", or "4000 budgets swept". */
export function sweptText(s: SweepInfo): string {
  const b = s.budgets;
  return b.swept === undefined ? `${b.count} budget${b.count === 1 ? '' : 's'} swept` : `${b.swept} of ${b.count} budgets swept before the interrupt`;
}

/** The finding: agreement at every budget, the first disagreement, or (interrupted) what is known of the budgets swept. */
export function sweepFinding(s: SweepInfo): string {
  const b = s.budgets;
  if (b.swept === undefined) {
    return s.first_disagreement === null
      ? 'the implementation agrees with the reference at every swept budget'
      : `first disagreement at budget ${s.first_disagreement}; disagreeing budgets: ${intervals(s.disagreements)}`;
  }
  const unknown = `nothing is known of the other ${b.count - b.swept}`;
  return s.first_disagreement === null
    ? `interrupted after ${b.swept} of ${b.count} budgets: no disagreement among them; ${unknown}`
    : `interrupted after ${b.swept} of ${b.count} budgets: among them the first disagreement is at budget ${s.first_disagreement}, the disagreeing budgets ${intervals(s.disagreements)}; ${unknown}`;
}
