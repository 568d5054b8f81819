/**
 * How the memory-api contract run is driven for a judging command: the
 * contract run (once, or once per repeat round in scopes of its own),
 * filtered like properties, each failing clause with the command the caller
 * spells to rerun it; as a report of its own (`ctxconform contract`) or
 * added to a run's (`ctxconform run --memory-api`).
 */
import { summarize } from '../protocol/types.js';
import type { AdapterName, ContractResult, Manifest, Report } from '../protocol/types.js';
import { idMatcher } from './filter.js';
import { reportOf } from './envelope.js';
import { combinePropertyRounds } from './repeat.js';
import { runContract } from '../contract/index.js';

/** What the contract run needs of a service transport's config (kind `service`): where the service is, how to reach it, what the run requires. */
export interface ServiceConfig {
  /** The service's base URL. */
  url: string;
  /** Sent as `Authorization: Bearer KEY`. */
  apiKey?: string;
  /** The task sent instead of the marker. */
  task?: string;
  /** The run marker carried by every ingested text (default DEFAULT_MARKER; '' for none). */
  marker?: string;
  /** How the service counts tokens: ESTIMATOR_CHOICES (default 4). */
  estimator?: string;
  /** `all`, or clause ids: such a clause that no exchange tested fails the run (verdict.ts). */
  requireTested?: string;
}

export interface ContractJudging {
  service: ServiceConfig;
  timeoutMs: number;
  /** Random requests after the directed scenarios. */
  runs: number;
  seed: number;
  /** Applies to the `contract/<name>` ids, as `--filter` does to properties. */
  filter?: string;
  /** The whole contract again from the same seed this many times (default 1): a clause judged differently is flaky. */
  repeat?: number;
  /** The command that reruns one failing clause, as the caller spells it; none, no rerun member. */
  rerun?: (id: string) => string;
}

/** The contract clauses the filter takes: the results a contract run gives, known before it starts (for progress). */
export async function contractClauseCount(filter: string | undefined): Promise<number> {
  const { CLAUSES } = await import('../contract/clauses.js');
  const matches = idMatcher(filter);
  return CLAUSES.filter((c) => matches({ id: `contract/${c.name}`, requirements: [c.id] })).length;
}

/** One result per clause the filter takes, and how long the run took. */
export async function judgeContract(o: ContractJudging): Promise<{ results: ContractResult[]; durationMs: number }> {
  const matches = idMatcher(o.filter);
  const t0 = performance.now();
  const { url, apiKey, task, marker, estimator } = o.service;
  const reach = { url, ...(apiKey !== undefined ? { apiKey } : {}), ...(task !== undefined ? { task } : {}), ...(marker !== undefined ? { marker } : {}) };
  // Repeated: the whole contract again from the same seed, each round in scopes of its own; a clause judged differently is flaky.
  const rounds: ContractResult[][] = [];
  for (let i = 0; i < Math.max(1, o.repeat ?? 1); i++) {
    rounds.push(
      (await runContract({ ...reach, timeoutMs: o.timeoutMs, runs: o.runs, seed: o.seed, ...(estimator !== undefined ? { estimator } : {}) })).filter((r) =>
        matches(r),
      ),
    );
  }
  const results = rounds.length === 1 ? rounds[0]! : combineContractRounds(rounds);
  if (o.rerun) for (const r of results) if (r.status !== 'pass' && r.status !== 'skip') r.rerun = o.rerun(r.id);
  return { results, durationMs: performance.now() - t0 };
}

/** A contract run's results added to a run's report (the golden cases a service skips): counted, and its time added. */
export function addContractResults(report: Report, results: readonly ContractResult[], o: { runs: number; durationMs: number }): Report {
  const cases = [...report.cases, ...results];
  return {
    ...report,
    run: { ...report.run, properties_runs: o.runs, duration_ms: (report.run?.duration_ms ?? 0) + Math.round(o.durationMs) },
    summary: summarize(cases),
    cases,
  };
}

/** The report of a contract run alone. */
export function contractReport(o: {
  manifest: Manifest;
  adapter: AdapterName;
  target: string;
  started: Date;
  durationMs: number;
  results: ContractResult[];
  runs: number;
  seed: number;
  filter?: string;
  repeat?: number;
}): Report {
  return reportOf({
    manifest: o.manifest,
    adapter: o.adapter,
    target: o.target,
    run: { seed: o.seed, properties_runs: o.runs, shard: null, filter: o.filter ?? null, ...((o.repeat ?? 1) > 1 ? { repeat: o.repeat } : {}) },
    started: o.started,
    durationMs: o.durationMs,
    summary: summarize(o.results),
    cases: o.results,
  });
}

/**
 * The rounds of a repeated run as one result per clause (compared by status,
 * as properties are). A flaky clause says how many exchanges tested it in the
 * round that tested it most, not only in the round that broke it.
 */
function combineContractRounds(rounds: ContractResult[][]): ContractResult[] {
  return combinePropertyRounds(rounds).map((r, j) => {
    if (r.status !== 'flaky') return r;
    const tested = Math.max(...rounds.map((round) => round[j]!.exchanges_tested ?? 0));
    return { ...r, exchanges_tested: tested };
  });
}
