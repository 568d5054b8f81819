/**
 * The runner: golden cases (and properties) against one implementation, into
 * a Report. A misbehaving implementation never ends the run: every adapter
 * failure is an Outcome, and anything that still throws becomes that case's
 * `error`.
 */
import { judge, skipReason } from '../judge.js';
import { byId, summarize } from '../types.js';
import type { AdapterName, CaseResult, GoldenCase, Implementation, Manifest, Report, Verdict } from '../types.js';
import { KIT_VERSION, SPEC_VERSION } from '../version.js';
import { idMatcher, inShard } from './filter.js';

export interface RunOptions {
  cases: GoldenCase[];
  impl: Implementation;
  manifest: Manifest;
  timeoutMs: number;
  concurrency: number;
  /** Runs per property; 0 runs none. */
  properties: number;
  seed: number;
  saveCounterexamples?: string;
  filter?: string;
  /** 1-based: shard 1/3 is the first of three. Properties run in shard 1 only. */
  shard?: { index: number; total: number };
  onProgress?: (done: number, total: number, current: string) => void;
  /** The command that reruns one case; defaults to the reference run. */
  rerun?: (id: string) => string;
  /** Recorded in report.run. */
  adapter?: AdapterName;
  target?: string;
}

function defaultRerun(id: string): string {
  return `npx ctxconform run --filter '${id}'`;
}

export async function runCase(c: GoldenCase, impl: Implementation, manifest: Manifest, timeoutMs: number): Promise<{ verdict: Verdict; stderr?: string; ms: number }> {
  const why = skipReason(c, manifest);
  if (why !== undefined) return { verdict: { status: 'skip', message: why }, ms: 0 };
  const t0 = performance.now();
  try {
    const outcome = await impl.assemble(c.request, { timeoutMs });
    const ms = performance.now() - t0;
    const verdict = judge(c, outcome, manifest);
    // Only a case that did not pass reports stderr, so only it waits for all of it.
    const stderr = verdict.status === 'pass' || verdict.status === 'skip' ? undefined : impl.stderrFor ? await impl.stderrFor(outcome) : outcome.stderr;
    return { verdict, ms, ...(stderr ? { stderr } : {}) };
  } catch (e) {
    return { verdict: { status: 'error', message: `the adapter failed: ${e instanceof Error ? e.message : String(e)}` }, ms: performance.now() - t0 };
  }
}

/** One case's verdict as a report entry, with what it takes to act on a failure. */
export function toResult(c: GoldenCase, r: { verdict: Verdict; stderr?: string; ms: number }, rerun: (id: string) => string): CaseResult {
  const v = r.verdict;
  const out: CaseResult = {
    id: c.id,
    kind: 'case',
    status: v.status,
    requirements: c.requirements,
    description: c.description,
    tags: c.tags,
    duration_ms: Math.round(r.ms * 1000) / 1000,
  };
  if (v.status === 'pass') return out;
  out.message = v.message || v.status;
  if (v.status === 'skip') return out;
  // What it takes to act on a failure: the diff, the request, the implementation's logs, the command.
  if (v.expected !== undefined) out.expected = v.expected;
  if (v.actual !== undefined) out.actual = v.actual;
  out.request = c.request;
  out.rerun = rerun(c.id);
  if (r.stderr) out.stderr = r.stderr;
  return out;
}

export async function runSuite(o: RunOptions): Promise<Report> {
  const started = new Date();
  const t0 = performance.now();
  const rerun = o.rerun ?? defaultRerun;
  const matches = idMatcher(o.filter);
  const cases = inShard(o.cases.filter((c) => matches(c.id)).sort(byId), o.shard);
  const withProperties = o.properties > 0 && (!o.shard || o.shard.index === 1);
  const total = cases.length + (withProperties ? 1 : 0);

  const results: CaseResult[] = new Array(cases.length);
  let done = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const i = next++;
      const c = cases[i]!;
      o.onProgress?.(done, total, c.id);
      results[i] = toResult(c, await runCase(c, o.impl, o.manifest, o.timeoutMs), rerun);
      done++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, cases.length)) }, worker));

  let props: CaseResult[] = [];
  if (withProperties) {
    const { PROPERTIES, runProperties } = await import('../properties/index.js');
    const only = PROPERTIES.map((p) => p.name).filter((name) => matches(`property/${name}`));
    if (only.length > 0) {
      o.onProgress?.(done, total, `properties (${only.length} × ${o.properties} runs)`);
      props = (
        await runProperties(o.impl, o.manifest, {
          runs: o.properties,
          seed: o.seed,
          timeoutMs: o.timeoutMs,
          concurrency: o.concurrency,
          only,
          ...(o.saveCounterexamples ? { saveCounterexamples: o.saveCounterexamples } : {}),
        })
      )
        .map((p: CaseResult) => (p.status !== 'pass' && p.status !== 'skip' && !p.rerun ? { ...p, rerun: rerun(p.id) } : p))
        .sort(byId);
    }
    done++;
  }
  o.onProgress?.(done, total, '');

  const all = [...results, ...props];
  return {
    kit: { name: 'ctxconform', version: KIT_VERSION, spec: SPEC_VERSION },
    implementation: o.manifest,
    run: {
      ...(o.adapter ? { adapter: o.adapter } : {}),
      ...(o.target ? { target: o.target } : {}),
      seed: o.seed,
      properties_runs: props.length > 0 ? o.properties : 0,
      shard: o.shard ? `${o.shard.index}/${o.shard.total}` : null,
      filter: o.filter ?? null,
      started_at: started.toISOString(),
      duration_ms: Math.round(performance.now() - t0),
    },
    summary: summarize(all),
    cases: all,
  };
}
