/**
 * "Not explained by these" names only failing results the diagnosis read: a replay's log keeps
 * the first failing results in file order (docs/diagnosis.md), and the report lists more.
 */
import { expect, it } from 'vitest';
import { unexplainedFailures } from '../../report/diagnosis.js';
import type { CaseResult, DiagnosisEntry, Report } from '../../protocol/types.js';

const result = (line: number, status: CaseResult['status']): CaseResult => ({
  id: `replay/t.jsonl:${line}`,
  kind: 'replay',
  level: 'profile',
  status,
  requirements: [],
  duration_ms: 1,
});
const cause = (failing: number, explained: string[]): DiagnosisEntry => ({
  id: 'some-defect',
  requirements: ['TIER-4'],
  summary: 'what it does; what TIER-4 says',
  explains: explained.length,
  contradicts: 0,
  failing,
  explained,
});
const report = (cases: CaseResult[], diagnosis?: DiagnosisEntry[]): Report => ({ cases, ...(diagnosis ? { diagnosis } : {}) }) as unknown as Report;

const cases = [result(1, 'fail'), result(2, 'pass'), result(3, 'fail'), result(4, 'crash'), result(5, 'fail')];

it('names the failures it read and no cause explains, not those past what it read', () => {
  // Read: the first three failing (lines 1, 3, 4); line 3 explained; line 5 never read.
  expect(unexplainedFailures(report(cases, [cause(3, ['replay/t.jsonl:3'])]))).toEqual(['replay/t.jsonl:1', 'replay/t.jsonl:4']);
});

it('names every listed failure none explains when the diagnosis read them all, and none without a diagnosis', () => {
  expect(unexplainedFailures(report(cases, [cause(4, ['replay/t.jsonl:1', 'replay/t.jsonl:5'])]))).toEqual(['replay/t.jsonl:3', 'replay/t.jsonl:4']);
  expect(unexplainedFailures(report(cases))).toEqual([]);
});

it('counts a sweep result explained when a cause explains one of its budgets', () => {
  const sweep = [{ ...result(0, 'fail'), id: 'sweep/memory', kind: 'sweep' as const }];
  expect(unexplainedFailures(report(sweep, [cause(5, ['sweep/memory@40'])]))).toEqual([]);
  expect(unexplainedFailures(report(sweep, [cause(5, ['sweep/notes@40'])]))).toEqual(['sweep/memory']);
});
