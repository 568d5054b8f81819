/**
 * Shrinking a recorded request that an implementation gets wrong, with the
 * properties' shrinker: fast-check's engine walks the candidates below, keeps
 * the first that still fails and starts again from it, until none does or
 * the budget of tries or time is spent (each try is an exchange with the
 * implementation).
 *
 * One candidate is the scrubbed request: when the failure survives
 * scrubbing, the saved case holds no recorded text at all. It comes first for
 * a request of at most SCRUB_FIRST_BLOCKS blocks, and for a larger one once
 * halving has brought it down to that: each try is an exchange with the
 * whole request, and on a request of 100,000 blocks a try at full size costs
 * what the halvings down to a few blocks cost together.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { equalJson, writeJson } from '../../protocol/deep-json.js';
import { scrubRequest } from '../scrub.js';
import { stopReason } from '../../vocabulary/stopping.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const CORE_BLOCK = new Set(['block_id', 'source', 'content', 'priority']);
const CORE_REQUEST = new Set(['now', 'budget', 'blocks']);

/** The request with these blocks; ids of removed blocks leave must_include and exclude too. */
function withBlocks(r: Obj, blocks: unknown[]): Obj {
  const out: Obj = { ...r, blocks };
  if (isObj(r.constraints)) {
    // A set: on a request of 100,000 blocks, blocks.includes per block would be 10^10 steps.
    const kept = new Set(blocks);
    const gone = new Set((r.blocks as unknown[]).filter((b) => !kept.has(b)).map((b) => (isObj(b) ? b.block_id : undefined)));
    const c: Obj = { ...r.constraints };
    for (const k of ['must_include', 'exclude']) if (Array.isArray(c[k])) c[k] = (c[k] as unknown[]).filter((id) => !gone.has(id));
    out.constraints = c;
  }
  return out;
}

function without(o: Obj, key: string): Obj {
  const out = { ...o };
  delete out[key];
  return out;
}

/** Every request one step simpler than `r`, biggest steps first. */
export function* smaller(r: unknown): Generator<unknown> {
  if (!isObj(r)) return;
  const blocks = Array.isArray(r.blocks) ? r.blocks : undefined;
  if (blocks && blocks.length >= 4) {
    const half = Math.floor(blocks.length / 2);
    yield withBlocks(r, blocks.slice(0, half));
    yield withBlocks(r, blocks.slice(half));
  }
  if (blocks)
    for (let i = 0; i < blocks.length; i++)
      yield withBlocks(
        r,
        blocks.filter((_, j) => j !== i),
      );
  if (r.constraints !== undefined) {
    yield without(r, 'constraints');
    if (isObj(r.constraints)) for (const k of Object.keys(r.constraints)) yield { ...r, constraints: without(r.constraints, k) };
  }
  for (const k of Object.keys(r)) if (!CORE_REQUEST.has(k) && k !== 'constraints' && !(k === 'profile' && r.profile === 'ranked')) yield without(r, k);
  if (typeof r.budget === 'number' && Number.isSafeInteger(r.budget) && r.budget > 0) {
    for (const b of new Set([0, Math.floor(r.budget / 2), r.budget - 1])) yield { ...r, budget: b };
  }
  if (!blocks) return;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (!isObj(b)) continue;
    const put = (nb: Obj): Obj => ({ ...r, blocks: blocks.map((x, j) => (j === i ? nb : x)) });
    for (const k of Object.keys(b)) if (!CORE_BLOCK.has(k)) yield put(without(b, k));
    if (typeof b.content === 'string' && b.content.length > 0) {
      const cps = [...b.content];
      yield put({ ...b, content: cps.slice(0, Math.floor(cps.length / 2)).join('') });
      if (cps.length > 1) yield put({ ...b, content: cps.slice(0, -1).join('') });
    }
    if (typeof b.priority === 'number' && b.priority !== 0 && Number.isFinite(b.priority)) {
      yield put({ ...b, priority: 0 });
      if (!Number.isInteger(b.priority)) yield put({ ...b, priority: Math.trunc(b.priority) });
    }
  }
}

/** Blocks up to which the scrubbed candidate is tried first (above, halving goes first). */
export const SCRUB_FIRST_BLOCKS = 64;

const blockCount = (r: unknown): number => (isObj(r) && Array.isArray(r.blocks) ? r.blocks.length : 0);

/** A recorded value as an arbitrary: it generates only itself, and shrinks through `smaller`. */
class RecordedArbitrary extends fc.Arbitrary<unknown> {
  constructor(
    private readonly start: unknown,
    /** True once the budget is spent: the stream of candidates ends there, so no candidate is even built. */
    private readonly spent: () => boolean,
  ) {
    super();
  }
  scrubOffered = false;
  generate(): fc.Value<unknown> {
    return new fc.Value(this.start, undefined);
  }
  canShrinkWithoutContext(_value: unknown): _value is unknown {
    return true;
  }
  shrink(value: unknown): fc.Stream<fc.Value<unknown>> {
    const spent = this.spent;
    const self = this;
    function* candidates(): Generator<fc.Value<unknown>> {
      if (spent()) return;
      // Offered once, on the first request small enough: accepted or not, its descendants need it no more.
      if (!self.scrubOffered && blockCount(value) <= SCRUB_FIRST_BLOCKS) {
        self.scrubOffered = true;
        const scrubbed = scrubRequest(value).request;
        if (!equalJson(scrubbed, value)) yield new fc.Value(scrubbed, undefined);
      }
      for (const x of smaller(value)) {
        if (spent()) return;
        yield new fc.Value(x, undefined);
      }
    }
    return new fc.Stream(candidates());
  }
}

export interface ShrinkOptions {
  /** Exchanges at most (default 300). */
  maxTries?: number;
  /** Wall time at most, in ms (default 20,000): checked between steps, whatever the request's size. */
  budgetMs?: number;
  /** Shrinking ends at the next step once this is aborted (SIGINT, SIGTERM). */
  signal?: AbortSignal;
}

/** What docs/replay.md promises for each shrunk request. */
export const SHRINK_MAX_TRIES = 300;
export const SHRINK_BUDGET_MS = 20_000;

export interface Shrunk {
  request: unknown;
  /** Candidates accepted: each one a step smaller. */
  steps: number;
  tries: number;
  /** Why shrinking ended before it ran out of candidates, when it did: a smaller request may exist. */
  stopped?: string;
}

/** Numbers as they differ for an implementation: -0 is not 0, and NaN and the infinities keep their names. */
const exactScalar = (v: number | bigint): string =>
  typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0.0' : Number.isFinite(v) ? JSON.stringify(v) : String(v);

/** Lets the event loop run (a signal's handler among them) between steps that are otherwise promise after promise. */
const breathe = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * The smallest request found on which `stillFails` holds, starting from one on
 * which it holds. Past the budget the remaining candidates are passed over,
 * and the smallest so far is kept.
 */
export async function shrinkRecorded(request: unknown, stillFails: (r: unknown) => Promise<boolean>, o: ShrinkOptions = {}): Promise<Shrunk> {
  const maxTries = o.maxTries ?? SHRINK_MAX_TRIES;
  const budgetMs = o.budgetMs ?? SHRINK_BUDGET_MS;
  const deadline = performance.now() + budgetMs;
  let tries = 0;
  let first = true;
  let stopped: string | undefined;
  const spent = (): boolean => {
    if (stopped === undefined) {
      if (o.signal?.aborted) stopped = stopReason(o.signal);
      else if (performance.now() > deadline) stopped = `after ${budgetMs / 1000} s`;
      else if (tries >= maxTries) stopped = `after ${maxTries} tries`;
    }
    return stopped !== undefined;
  };
  // Candidates already asked about that did not fail, by their text. Each round of shrinking starts
  // its candidates over from the new smallest request, so on a small request the same candidate comes
  // back round after round (budget 0, the budget one lower): a fifth of the tries on two blocks.
  // Only requests that did not fail are kept (a failing one is accepted and shrunk from, not asked
  // again), and only small ones (the text of a 100,000-block request costs what a try does), each
  // kept as the hash of its text (a few blocks can still hold megabytes).
  const passed = new Set<string>();
  const keyOf = (r: unknown): string | undefined => {
    if (blockCount(r) > SCRUB_FIRST_BLOCKS) return undefined;
    const text = writeJson(r, { scalar: exactScalar });
    return text === undefined ? undefined : createHash('sha1').update(text).digest('base64');
  };
  const property = fc.asyncProperty(new RecordedArbitrary(request, spent), async (r) => {
    // The start is known to fail: no exchange spent on it.
    if (first) {
      first = false;
      return false;
    }
    await breathe();
    if (spent()) return true;
    const key = keyOf(r);
    if (key !== undefined && passed.has(key)) return true;
    tries++;
    try {
      const fails = await stillFails(r);
      if (!fails && key !== undefined) passed.add(key);
      return !fails;
    } catch {
      return true;
    }
  });
  const details = await fc.check(property, { numRuns: 1, seed: 0 });
  const found = details.counterexample?.[0];
  return { request: details.failed && found !== undefined ? found : request, steps: details.numShrinks, tries, ...(stopped !== undefined ? { stopped } : {}) };
}
