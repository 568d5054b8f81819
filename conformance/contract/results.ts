/**
 * The memory-api contract's results in a run's report: the contract run (once,
 * or once per --repeat round in scopes of its own), filtered like properties,
 * each failing clause with the command that reruns it.
 */
import { summarize } from '../../protocol/types.js';
import type { CaseResult, Report } from '../../protocol/types.js';
import { shellQuote } from '../runner/console.js';
import { idMatcher } from '../runner/filter.js';
import { combinePropertyRounds } from '../runner/repeat.js';
import { rerunCommand, type MemoryApiSettings } from '../runner/transports.js';
import { runContract } from './index.js';

/** The contract results added to a run's report (shard 1 only, as properties; --filter applies to `contract/...` ids). */
export async function addContractResults(
  report: Report,
  t: MemoryApiSettings,
  rerunFlags: readonly string[],
  o: { timeoutMs: number; runs: number; seed: number; filter?: string; shard?: { index: number; total: number }; repeat?: number },
): Promise<Report> {
  if (o.shard && o.shard.index !== 1) return report;
  const matches = idMatcher(o.filter);
  const t0 = performance.now();
  const { url, ...chosen } = t;
  // --repeat: the whole contract again from the same seed, each round in scopes of its own; a clause judged differently is flaky.
  const rounds: CaseResult[][] = [];
  for (let i = 0; i < Math.max(1, o.repeat ?? 1); i++) {
    rounds.push((await runContract({ url, timeoutMs: o.timeoutMs, runs: o.runs, seed: o.seed, ...chosen })).filter((r) => matches(r)));
  }
  const results = rounds.length === 1 ? rounds[0]! : combineContractRounds(rounds);
  // The key itself never goes into a report: the flags name its environment variable.
  const rerun = (id: string): string =>
    rerunCommand('run', rerunFlags, [
      '--cases',
      'none',
      '--filter',
      shellQuote(id),
      '--properties',
      String(o.runs),
      '--seed',
      String(o.seed),
      '--timeout',
      String(o.timeoutMs),
      ...(rounds.length > 1 ? ['--repeat', String(rounds.length)] : []),
    ]);
  for (const r of results) if (r.status !== 'pass' && r.status !== 'skip') r.rerun = rerun(r.id);
  const cases = [...report.cases, ...results];
  return {
    ...report,
    run: { ...report.run, properties_runs: o.runs, duration_ms: (report.run?.duration_ms ?? 0) + Math.round(performance.now() - t0) },
    summary: summarize(cases),
    cases,
  };
}

/**
 * The rounds of --repeat as one result per clause (compared by status, as
 * properties are). A flaky clause says how many exchanges tested it in the
 * round that tested it most, not only in the round that broke it.
 */
function combineContractRounds(rounds: CaseResult[][]): CaseResult[] {
  return combinePropertyRounds(rounds).map((r, j) => {
    if (r.status !== 'flaky') return r;
    const tested = Math.max(...rounds.map((round) => round[j]!.exchanges_tested ?? 0));
    return { ...r, exchanges_tested: tested };
  });
}
