/**
 * `ctxconform run --memory-api URL [--api-key KEY]`: the pieces conformance/cli/run.ts
 * needs, kept here so the command itself only gains a few lines.
 */
import { openMemoryApi, memoryApiManifest } from '../../adapters/memory-api/index.js';
import { UsageError } from '../cli/main.js';
import { shellQuote } from '../runner/console.js';
import { idMatcher } from '../runner/filter.js';
import { summarize } from '../types.js';
import type { Implementation, Manifest, Report } from '../types.js';
import { runContract } from './index.js';

export const MEMORY_API_OPTIONS = {
  'memory-api': { type: 'string' },
  'api-key': { type: 'string' },
} as const;

export const MEMORY_API_HELP = `memory service (profile working-context-api; SPEC section 16, docs/memory-api.md):
  --memory-api URL        a memory-api v0 service: golden cases skip, the contract is checked
                          (--properties N random requests after the directed ones)
  --api-key KEY           sent as Authorization: Bearer KEY`;

export interface MemoryApiTarget {
  impl: Implementation;
  manifest: Manifest;
  adapter: 'memory-api';
  target: string;
  url: string;
  apiKey?: string;
}

/** The memory-api target when --memory-api is given; a UsageError when it is combined with another target. */
export function openMemoryApiTarget(values: Record<string, unknown>, timeoutMs: number): MemoryApiTarget | undefined {
  const url = values['memory-api'];
  const apiKey = values['api-key'];
  if (url === undefined) {
    if (apiKey !== undefined) throw new UsageError('--api-key goes with --memory-api');
    return undefined;
  }
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
  const impl = openMemoryApi({ url: String(url), timeoutMs, ...(key !== undefined ? { apiKey: key } : {}) });
  return { impl, manifest: memoryApiManifest(), adapter: 'memory-api', target: String(url), url: String(url), ...(key !== undefined ? { apiKey: key } : {}) };
}

/** The contract results added to a run's report (shard 1 only, as properties; --filter applies to `contract/...` ids). */
export async function addContractResults(
  report: Report,
  t: MemoryApiTarget,
  o: { timeoutMs: number; runs: number; seed: number; filter?: string; shard?: { index: number; total: number } },
): Promise<Report> {
  if (o.shard && o.shard.index !== 1) return report;
  const matches = idMatcher(o.filter);
  const t0 = performance.now();
  const results = (await runContract({ url: t.url, timeoutMs: o.timeoutMs, runs: o.runs, seed: o.seed, ...(t.apiKey !== undefined ? { apiKey: t.apiKey } : {}) })).filter((r) => matches(r.id));
  // The key itself never goes into a report.
  const rerun = (id: string) =>
    ['npx ctxconform run --memory-api', shellQuote(t.url), ...(t.apiKey !== undefined ? ['--api-key "$MEMORY_API_KEY"'] : []), '--cases none --filter', shellQuote(id), '--properties', String(o.runs), '--seed', String(o.seed), '--timeout', String(o.timeoutMs)].join(' ');
  for (const r of results) if (r.status !== 'pass' && r.status !== 'skip') r.rerun = rerun(r.id);
  const cases = [...report.cases, ...results];
  return {
    ...report,
    run: { ...report.run, properties_runs: o.runs, duration_ms: (report.run?.duration_ms ?? 0) + Math.round(performance.now() - t0) },
    summary: summarize(cases),
    cases,
  };
}
