/**
 * In-process adapter (SPEC PROTO-2): an ES module exporting `assemble(request)`
 * and optionally `describe()`. A thrown object with a `code`, or a returned
 * `{error: {...}}`, is an error answer; anything else thrown is a crash of
 * that one call. A synchronous hang cannot be interrupted on the runner's own
 * thread: `--module` runs a vendor's module through adapters/module.ts (a
 * worker thread) instead; this adapter serves the reference and test doubles.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { Implementation, Manifest, Outcome } from '../protocol/types.js';
import { returnedOutcome, thrownOutcome } from './outcome.js';
import { cloneJson } from '../protocol/deep-json.js';

export type AssembleFn = (request: unknown) => unknown;

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  (typeof x === 'object' || typeof x === 'function') && x !== null && typeof (x as { then?: unknown }).then === 'function';
export type DescribeFn = () => unknown;

export interface FunctionOptions {
  /**
   * The function never writes to its request, so it is handed the caller's
   * own: only the reference, which a test holds to that (a deep copy of every
   * request is a good part of what a replay against it costs).
   */
  readsOnly?: boolean;
}

/** Wrap plain functions as an Implementation (the reference, test doubles, vendor modules). */
export function fromFunctions(assemble: AssembleFn, describe?: DescribeFn, manifest?: Manifest, options: FunctionOptions = {}): Implementation {
  return {
    async describe(): Promise<Manifest> {
      if (manifest) return manifest;
      if (!describe) throw new Error('the module exports no describe(); give --manifest');
      return (await describe()) as Manifest;
    },
    async assemble(request: unknown, { timeoutMs }: { timeoutMs: number }): Promise<Outcome> {
      // A deep copy: an implementation that mutates its input must not change what the judge sees
      // (at any depth: structuredClone alone gives up at a few thousand levels).
      const copy = options.readsOnly ? request : cloneJson(request);
      let returned: unknown;
      try {
        returned = assemble(copy);
        // A value returned at once is in before any timer could fire: only a promise races the timeout.
        if (!isThenable(returned)) return returnedOutcome(returned);
      } catch (e) {
        return thrownOutcome(e);
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<Outcome>((done) => {
        timer = setTimeout(() => done({ kind: 'timeout', message: `no answer within ${timeoutMs} ms` }), timeoutMs);
      });
      try {
        const answer = (async (): Promise<Outcome> => {
          try {
            return returnedOutcome(await returned);
          } catch (e) {
            return thrownOutcome(e);
          }
        })();
        return await Promise.race([answer, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close(): Promise<void> {},
  };
}

/** Import a module by path and wrap its exports. Throws (a usage error) when it has no `assemble`. */
export async function openModule(path: string, manifest?: Manifest): Promise<Implementation> {
  const mod = (await import(pathToFileURL(resolve(path)).href)) as {
    assemble?: unknown;
    describe?: unknown;
    default?: { assemble?: unknown; describe?: unknown };
  };
  const source = typeof mod.assemble === 'function' ? mod : mod.default;
  if (!source || typeof source.assemble !== 'function') throw new Error(`${path} does not export an assemble(request) function`);
  return fromFunctions(source.assemble as AssembleFn, typeof source.describe === 'function' ? (source.describe as DescribeFn) : undefined, manifest);
}
