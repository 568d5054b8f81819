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
  // Held to the principles (a design of its own), a budget fails by breaking one, not by differing from tiered.
  const principles = s.judged_by === 'principles';
  const all = principles
    ? 'the implementation breaks no design-agnostic principle at any swept budget'
    : 'the implementation agrees with the reference at every swept budget';
  const first = principles ? 'first budget that breaks a principle' : 'first disagreement at budget';
  const failing = principles ? 'budgets that break one' : 'disagreeing budgets';
  if (b.swept === undefined) {
    return s.first_disagreement === null ? all : `${first}${principles ? ':' : ''} ${s.first_disagreement}; ${failing}: ${intervals(s.disagreements)}`;
  }
  const unknown = `nothing is known of the other ${b.count - b.swept}`;
  return s.first_disagreement === null
    ? `interrupted after ${b.swept} of ${b.count} budgets: ${principles ? 'none of them breaks a principle' : 'no disagreement among them'}; ${unknown}`
    : `interrupted after ${b.swept} of ${b.count} budgets: among them the ` +
        `${principles ? `first that breaks a principle is ${s.first_disagreement}` : `first disagreement is at budget ${s.first_disagreement}`}, ` +
        `the ${failing} ${intervals(s.disagreements)}; ${unknown}`;
}
