/**
 * The contract's clauses as the terminal shows them: one line per clause with
 * how many exchanges tested it, then the refusals the run worked around. Light
 * on purpose: every judging command's ending prints it when a report has
 * contract results.
 */
import type { CaseResult, Report } from '../protocol/types.js';
import { textTable } from '../report/text-table.js';
import { FALLBACK_PREFIX } from './clauses.js';

/** The clause a contract result stands for: its MAPI id (a flaky one cites REQ-2 too). */
const clauseIds = (c: CaseResult): string => c.requirements.filter((id) => id.startsWith('MAPI-')).join(', ');

/** The contract results as the terminal shows them: one line per clause, with how many exchanges tested it. */
export function clauseTable(report: Report): string {
  const rows = report.cases.filter((c) => c.kind === 'contract');
  if (rows.length === 0) return '';
  const exchanges = Math.max(0, ...rows.map((c) => c.num_runs ?? 0));
  const cells = rows.map((c) => {
    const why = c.status === 'skip' ? (c.message ?? '').replace(/^MAPI-\d+ /, '') : '';
    return [clauseIds(c), c.id, c.status, String(c.exchanges_tested ?? 0), why];
  });
  const table = textTable([['clause', 'result', 'status', 'tested by', ''], ...cells], { right: [3] });
  return [`contract clauses (${exchanges} exchanges; "tested by": the exchanges that put the clause to the test):`, table, ...fallbackLines(rows)].join('\n');
}

/** The refusals the run worked around as the contract allows (a consistency it cannot offer...), said under the table, not only in the JSON. */
function fallbackLines(rows: readonly CaseResult[]): string[] {
  const answers = rows.find((c) => c.requirements.includes('MAPI-1'));
  // The notes end the message (contract/index.ts), each after `; fallback: `.
  return (answers?.message ?? '')
    .split(`; ${FALLBACK_PREFIX}`)
    .slice(1)
    .map((part) => `note: ${part}`);
}
