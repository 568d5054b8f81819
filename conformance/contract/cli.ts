/**
 * `ctxconform run --memory-api URL [--api-key KEY] [--task TEXT] [--marker TOKEN]`:
 * the pieces conformance/cli/run.ts needs, kept here so the command itself only
 * gains a few lines.
 */
import { DEFAULT_MARKER, openMemoryApi, memoryApiManifest } from '../../adapters/memory-api/index.js';
import { UsageError } from '../cli/main.js';
import { shellQuote } from '../runner/console.js';
import { idMatcher } from '../runner/filter.js';
import { summarize } from '../../protocol/types.js';
import type { CaseResult, Implementation, Manifest, Report } from '../../protocol/types.js';
import { combinePropertyRounds } from '../runner/repeat.js';
import { FALLBACK_PREFIX, runContract } from './index.js';
import { ESTIMATOR_CHOICES, isEstimatorSpec } from './estimator.js';
import { contractGate, parseRequireTested, type ContractGate, type RequireTested } from './verdict.js';

export const MEMORY_API_OPTIONS = {
  'memory-api': { type: 'string' },
  'api-key': { type: 'string' },
  task: { type: 'string' },
  marker: { type: 'string' },
  estimator: { type: 'string' },
  'require-tested': { type: 'string' },
} as const;

export const MEMORY_API_HELP = `memory service (profile working-context-api; SPEC section 16, docs/memory-api.md):
  --memory-api URL        a memory-api v0 service: golden cases skip, the contract is checked
                          (--properties N random requests after the directed ones)
  --api-key KEY           sent as Authorization: Bearer KEY
  --marker TOKEN          one word carried by every ingested text and sent as the task, so a
                          service that retrieves by relevance finds every memory (default
                          ${DEFAULT_MARKER}; '' ingests the block contents unchanged)
  --task TEXT             the task sent instead of the marker
  --estimator E           how the service counts tokens: characters (code points) per token,
                          default 4 (NUM-2), or o200k_base or cl100k_base; the kit recounts
                          every answer's segments with it and judges MAPI-3 on the larger count
  --require-tested IDS    all, or clause ids (MAPI-11,MAPI-13): such a clause that no exchange
                          tested fails the run (exit 1) instead of skipping`;

export interface MemoryApiTarget {
  impl: Implementation;
  manifest: Manifest;
  adapter: 'memory-api';
  target: string;
  url: string;
  apiKey?: string;
  task?: string;
  marker?: string;
  /** `--estimator` as given (checked). */
  estimator?: string;
  requireTested?: RequireTested;
}

/** The memory-api target when --memory-api is given; a UsageError when it is combined with another target. */
export function openMemoryApiTarget(values: Record<string, unknown>, timeoutMs: number): MemoryApiTarget | undefined {
  const url = values['memory-api'];
  const apiKey = values['api-key'];
  if (url === undefined) {
    for (const k of ['api-key', 'task', 'marker', 'estimator', 'require-tested']) if (values[k] !== undefined) throw new UsageError(`--${k} goes with --memory-api`);
    return undefined;
  }
  const task = typeof values.task === 'string' ? values.task : undefined;
  const marker = typeof values.marker === 'string' ? values.marker : undefined;
  // One token: a marker with a space in it is two words to a retriever, and either may be extracted on its own.
  if (marker !== undefined && /\s/u.test(marker)) throw new UsageError(`--marker needs one token without spaces (or '' for none), not ${JSON.stringify(marker)}`);
  const others = ['impl', 'module', 'stdio', 'http', 'manifest'].filter((k) => values[k] !== undefined);
  if (others.length) throw new UsageError(`--memory-api is the implementation: it cannot be combined with ${others.map((k) => `--${k}`).join(', ')}`);
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw new UsageError(`--memory-api needs an http(s) URL, not ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--memory-api needs an http(s) URL, not ${JSON.stringify(url)}`);
  const key = typeof apiKey === 'string' ? apiKey : undefined;
  const estimator = typeof values.estimator === 'string' ? values.estimator : undefined;
  if (estimator !== undefined && !isEstimatorSpec(estimator)) throw new UsageError(`--estimator takes ${ESTIMATOR_CHOICES}, not ${JSON.stringify(estimator)}`);
  let requireTested: RequireTested | undefined;
  if (typeof values['require-tested'] === 'string') {
    const r = parseRequireTested(values['require-tested']);
    if ('problem' in r) throw new UsageError(r.problem);
    requireTested = r.required;
  }
  const chosen = { ...(key !== undefined ? { apiKey: key } : {}), ...(task !== undefined ? { task } : {}), ...(marker !== undefined ? { marker } : {}) };
  const impl = openMemoryApi({ url: String(url), timeoutMs, ...chosen });
  return {
    impl,
    manifest: memoryApiManifest(),
    adapter: 'memory-api',
    target: String(url),
    url: String(url),
    ...chosen,
    ...(estimator !== undefined ? { estimator } : {}),
    ...(requireTested !== undefined ? { requireTested } : {}),
  };
}

/** The contract results added to a run's report (shard 1 only, as properties; --filter applies to `contract/...` ids). */
export async function addContractResults(
  report: Report,
  t: MemoryApiTarget,
  o: { timeoutMs: number; runs: number; seed: number; filter?: string; shard?: { index: number; total: number }; repeat?: number },
): Promise<Report> {
  if (o.shard && o.shard.index !== 1) return report;
  const matches = idMatcher(o.filter);
  const t0 = performance.now();
  const chosen = {
    ...(t.apiKey !== undefined ? { apiKey: t.apiKey } : {}),
    ...(t.task !== undefined ? { task: t.task } : {}),
    ...(t.marker !== undefined ? { marker: t.marker } : {}),
    ...(t.estimator !== undefined ? { estimator: t.estimator } : {}),
  };
  // --repeat: the whole contract again from the same seed, each round in scopes of its own; a clause judged differently is flaky.
  const rounds: CaseResult[][] = [];
  for (let i = 0; i < Math.max(1, o.repeat ?? 1); i++) {
    rounds.push((await runContract({ url: t.url, timeoutMs: o.timeoutMs, runs: o.runs, seed: o.seed, ...chosen })).filter((r) => matches(r)));
  }
  const results = rounds.length === 1 ? rounds[0]! : combineContractRounds(rounds);
  // The key itself never goes into a report.
  const rerun = (id: string) =>
    [
      'npx ctxconform run --memory-api',
      shellQuote(t.url),
      ...(t.apiKey !== undefined ? ['--api-key "$MEMORY_API_KEY"'] : []),
      ...(t.task !== undefined ? ['--task', shellQuote(t.task)] : []),
      ...(t.marker !== undefined ? ['--marker', shellQuote(t.marker)] : []),
      ...(t.estimator !== undefined ? ['--estimator', shellQuote(t.estimator)] : []),
      '--cases none --filter',
      shellQuote(id),
      '--properties',
      String(o.runs),
      '--seed',
      String(o.seed),
      '--timeout',
      String(o.timeoutMs),
      ...(rounds.length > 1 ? ['--repeat', String(rounds.length)] : []),
    ].join(' ');
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
  const head = ['clause', 'result', 'status', 'tested by'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.slice(0, 4).map((v, i) => (i === 3 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ') + (r[4] ? `  ${r[4]}` : '');
  return [`contract clauses (${exchanges} exchanges; "tested by": the exchanges that put the clause to the test):`, line(head), ...cells.map(line), ...fallbackLines(rows)].join('\n');
}

/** The refusals the run worked around as the contract allows (a consistency it cannot offer...), said under the table, not only in the JSON. */
function fallbackLines(rows: readonly CaseResult[]): string[] {
  const answers = rows.find((c) => c.requirements.includes('MAPI-1'));
  // The notes end the message (conformance/contract/index.ts), each after `; fallback: `.
  return (answers?.message ?? '')
    .split(`; ${FALLBACK_PREFIX}`)
    .slice(1)
    .map((part) => `note: ${part}`);
}

/** The closing line's word on untested clauses and the --require-tested verdict; the contract runs in shard 1 only, so other shards require nothing. */
export function contractGateFor(report: Report, t: MemoryApiTarget, shard?: { index: number; total: number }): ContractGate {
  return contractGate(report, shard && shard.index !== 1 ? undefined : t.requireTested);
}
