/**
 * Property-based differential testing: random requests through any
 * implementation, each failure shrunk to the smallest request on which it
 * misbehaves. The same seed gives the same requests and the same report.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { Implementation, Manifest, PropertyResult } from '../../protocol/types.js';
import { genContext } from './arbitraries.js';
import type { GenContext } from './arbitraries.js';
import { ask, comparableView, PropertyFailure } from './answers.js';
import type { PropertyDef, PropertyEnv } from './property.js';
import { listedFor, PROPERTIES, referenceAnswer, withWorkingContext } from './catalog.js';
import { saveIfFailing } from './counterexample.js';
import { keptDraws } from './drawn.js';
import { breather, untilStopped } from '../../vocabulary/stopping.js';
import { defectFrom } from '../../vocabulary/defect.js';
import { propertyLevel } from '../../vocabulary/levels.js';

export { PROPERTIES, listedFor } from './catalog.js';
import { prepareDesign } from '../principles/design.js';
export type { PropertyDef } from './property.js';

export interface PropertyOptions {
  runs: number;
  seed: number;
  timeoutMs: number;
  saveCounterexamples?: string;
  /** Only these properties (by name); all when absent. */
  only?: readonly string[];
  /** Properties run side by side (each one's requests stay sequential); default 1. */
  concurrency?: number;
  /** Aborted (SIGINT, SIGTERM): a property not finished before it is left out of the results. */
  signal?: AbortSignal;
  /** Called as each property's result is ready (progress). */
  onResult?: (r: PropertyResult) => void;
}

/**
 * Past this much shrinking, the predicate answers "pass" without asking, so
 * that fast-check stops with the smallest counterexample found so far.
 */
const SHRINK_BUDGET_MS = 30_000;
/**
 * Shrink steps that may time out: each costs a whole --timeout, and an
 * implementation that hangs on one request in twenty would otherwise spend
 * minutes shrinking through hangs. Past this, shrinking stops as above.
 */
const SHRINK_TIMEOUTS = 1;

export async function runProperties(impl: Implementation, manifest: Manifest, opts: PropertyOptions): Promise<PropertyResult[]> {
  const gen = genContext(manifest);
  const defs = PROPERTIES.filter((def) => (!opts.only || opts.only.includes(def.name)) && listedFor(def, gen));
  const results: (PropertyResult | undefined)[] = new Array(defs.length);
  // Side by side, a property stuck on a timeout does not hold up the others (over stdio each gets its own process).
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < defs.length && !opts.signal?.aborted) {
      const i = next++;
      const r = await runProperty(defs[i]!, impl, manifest, gen, opts);
      // Finished after the signal, its runs were cut short: not a verdict.
      if (opts.signal?.aborted) return;
      results[i] = r;
      opts.onResult?.(r);
    }
  };
  await untilStopped(Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, defs.length)) }, lane)), opts.signal);
  return results.filter((r): r is PropertyResult => r !== undefined);
}

/** Replays one property at a seed and fast-check path: the shrunk counterexample again, at once. */
export async function replayProperty(
  name: string,
  impl: Implementation,
  manifest: Manifest,
  opts: { seed: number; path: string; timeoutMs: number },
): Promise<PropertyResult> {
  const def = PROPERTIES.find((p) => p.name === name);
  if (!def) throw new Error(`no property named ${name}; known: ${PROPERTIES.map((p) => p.name).join(', ')}`);
  const gen = genContext(manifest);
  return runProperty(def, impl, manifest, gen, { runs: 1, seed: opts.seed, timeoutMs: opts.timeoutMs }, opts.path);
}

async function runProperty(
  def: PropertyDef<unknown>,
  impl: Implementation,
  manifest: Manifest,
  gen: GenContext,
  opts: PropertyOptions,
  replayPath?: string,
): Promise<PropertyResult> {
  const base = {
    id: `property/${def.name}`,
    kind: 'property' as const,
    level: propertyLevel(def.name, manifest),
    requirements: def.requirements(gen),
    description: def.description,
  };
  if (!def.applies(gen)) {
    return { ...base, status: 'skip', duration_ms: 0, message: def.notApplicable?.(gen) ?? `not applicable to profiles [${gen.profiles.join(', ')}]` };
  }
  const env: PropertyEnv = { impl, gen, timeoutMs: opts.timeoutMs, ...(gen.profiles.includes('any') ? { design: await prepareDesign(manifest) } : {}) };
  const started = performance.now();
  let shrinkDeadline: number | undefined;
  let shrinkTimeouts = 0;
  let shrinkStopped: string | undefined;
  // The requirement the first failure broke first: a shrink keeps to failures of it, so a cut shrinks to a cut, not to whatever else a smaller request breaks.
  let shrinkingFor: string | undefined;
  const breathe = breather();
  // Drawn once per seed and context, whichever property or implementation asks again (drawn.ts).
  const property = fc.asyncProperty(keptDraws(def.arbitrary, gen), async (input) => {
    await breathe();
    // Interrupted: every remaining run passes without a request, so fast-check ends at once (the result is dropped).
    if (opts.signal?.aborted) return true;
    if (shrinkDeadline !== undefined) {
      if (performance.now() > shrinkDeadline) shrinkStopped ??= `after ${SHRINK_BUDGET_MS / 1000} s`;
      else if (shrinkTimeouts >= SHRINK_TIMEOUTS) shrinkStopped ??= `at a timeout (${SHRINK_TIMEOUTS} allowed while shrinking, ${opts.timeoutMs} ms each)`;
      if (shrinkStopped) return true;
    }
    try {
      await def.check(env, input);
      return true;
    } catch (e) {
      if (fc.PreconditionFailure.isFailure(e)) throw e;
      const broke = e instanceof PropertyFailure ? e.requirements : undefined;
      if (shrinkDeadline === undefined) {
        shrinkDeadline = performance.now() + SHRINK_BUDGET_MS;
        shrinkingFor = def.shrinksWithinFirst ? broke?.[0] : undefined;
      } else {
        if (shrinkingFor !== undefined && broke !== undefined && !broke.includes(shrinkingFor)) return true;
        if (e instanceof PropertyFailure && e.status === 'timeout') shrinkTimeouts++;
      }
      throw e;
    }
  });
  const details = await fc.check(property, {
    numRuns: opts.runs,
    seed: opts.seed,
    ...(replayPath !== undefined ? { path: replayPath, endOnFailure: true } : {}),
  });
  const duration_ms = performance.now() - started;
  if (!details.failed) return { ...base, status: 'pass', duration_ms, num_runs: details.numRuns, seed: opts.seed };

  const input = details.counterexample?.[0];
  const err = details.errorInstance;
  const failure =
    err instanceof PropertyFailure
      ? err
      : new PropertyFailure(`the property could not be checked: ${err instanceof Error ? err.message : String(err)}`, 'error');
  const requests = input === undefined ? [] : def.requests(input);
  const path = details.counterexamplePath ?? '';
  const result: PropertyResult = {
    ...base,
    ...(failure.requirements ? { requirements: failure.requirements } : {}),
    status: failure.status,
    duration_ms,
    num_runs: details.numRuns,
    seed: opts.seed,
    path,
    counterexample: requests[0],
    message:
      `${failure.message}\n(seed ${opts.seed}, path ${path}; failed after ${details.numRuns} ` +
      `run${details.numRuns === 1 ? '' : 's'}, shrunk in ${details.numShrinks} ` +
      `step${details.numShrinks === 1 ? '' : 's'}${shrinkStopped ? `; shrinking stopped ${shrinkStopped}, so a smaller counterexample may exist` : ''})`,
    ...(failure.expected !== undefined ? { expected: failure.expected } : {}),
    ...(failure.actual !== undefined ? { actual: failure.actual } : {}),
    // The shrunk counterexample's: what a baseline entry of this property accepts.
    defect: defectFrom(failure),
  };
  if (opts.saveCounterexamples && requests.length > 0) {
    const request = await requestToSave(env, requests);
    const saved = await saveIfFailing(
      { property: def.name, requirements: result.requirements, seed: opts.seed, path, message: failure.message, request },
      opts.saveCounterexamples,
      { impl, manifest, timeoutMs: opts.timeoutMs },
    );
    result.message += `\n${saved}`;
  }
  return result;
}

/**
 * Of the requests a failing check sent, the first the implementation answers
 * differently from the reference: that one makes a case that fails on its own.
 */
async function requestToSave(env: PropertyEnv, requests: unknown[]): Promise<unknown> {
  for (const req of requests) {
    const wc = withWorkingContext(req, env.gen);
    try {
      const actual = comparableView(await ask(env.impl, req, env.gen.capabilities, env.timeoutMs), wc);
      if (!isDeepStrictEqual(actual, comparableView(referenceAnswer(req, env.gen.capabilities, env.gen.constants), wc))) return req;
    } catch {
      return req;
    }
  }
  return requests[0];
}
