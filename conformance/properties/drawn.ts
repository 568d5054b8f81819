/**
 * The inputs a property's arbitrary drew, kept by the generator state each was
 * drawn at, so that drawing again at the same seed costs a lookup. Drawing is
 * a good part of what a property run costs against an implementation that
 * answers in process (the broken implementations' test spent 30% less with
 * its draws kept), and the same draws recur: six properties share the
 * request arbitrary, `--repeat N` replays every seed N times, and a suite that
 * runs the properties against several implementations at one seed draws the
 * same requests for each. A draw is a pure function of the arbitrary (built
 * the same way from the same generation context) and of the state it starts
 * at, so the value kept is the value a fresh draw would give: a seed gives the
 * same requests as ever, and shrinking starts from the same value and context.
 *
 * The inputs are shared between the runs that draw them: nothing may write to
 * a generated request (the checks build new ones; the in-process adapter
 * copies a request before a function that is not known to only read it sees
 * it, and the other transports serialize it).
 */
import fc from 'fast-check';
import type { GenContext } from './arbitraries.js';

/** Draws kept per arbitrary and context: the runs of a property up to this many (more are drawn afresh). */
const MAX_DRAWS = 2_000;
/** Arbitraries (per context) whose draws are kept, the least recently used forgotten first. */
const MAX_KEPT = 12;

/**
 * A kept draw: the value, and where it was drawn from. Not fast-check's own
 * Value, whose shrinking context (a context per character of every content)
 * is ten times the size of the request: only a failing run shrinks, and it
 * draws the context again from the same state.
 */
interface Draw {
  value: unknown;
  from: fc.Random;
  biasFactor: number | undefined;
}
const isDraw = (x: unknown): x is Draw => typeof x === 'object' && x !== null && (x as Draw).from instanceof fc.Random;

type Draws = Map<string, Draw>;
const kept = new Map<string, Draws>();

/**
 * An arbitrary that draws as `arb` does and keeps each draw by the state it
 * started at. Only for a property's whole input: a draw found kept leaves the
 * generator where it was instead of where drawing would have left it, and
 * fast-check draws nothing after a property's input.
 */
class KeptDraws<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly arb: fc.Arbitrary<T>,
    private readonly draws: Draws,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    const state = mrng.getState();
    if (state === undefined) return this.arb.generate(mrng, biasFactor);
    const key = `${biasFactor ?? ''}:${state.join(',')}`;
    let draw = this.draws.get(key);
    if (draw === undefined) {
      const from = mrng.clone();
      draw = { value: this.arb.generate(mrng, biasFactor).value, from, biasFactor };
      if (this.draws.size < MAX_DRAWS) this.draws.set(key, draw);
    }
    return new fc.Value(draw.value as T, draw);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arb.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    if (!isDraw(context)) return this.arb.shrink(value, context);
    // Drawn again from where it was drawn: the same value, with the context that shrinks it.
    const again = this.arb.generate(context.from.clone(), context.biasFactor);
    return this.arb.shrink(again.value, again.context);
  }
}

/** What makes two generation contexts draw alike: everything they hold. */
const contextKey = (gen: GenContext): string => JSON.stringify([gen.profiles, gen.capabilities, gen.constants ?? null]);

/** Ids for the arbitrary builders, so that the properties built on one (`request`) share its draws. */
const builderIds = new WeakMap<object, number>();
let nextId = 0;

/** `build(gen)`, drawing through the draws kept for that builder and context. */
export function keptDraws<T>(build: (gen: GenContext) => fc.Arbitrary<T>, gen: GenContext): fc.Arbitrary<T> {
  let id = builderIds.get(build);
  if (id === undefined) {
    id = nextId++;
    builderIds.set(build, id);
  }
  const key = `${id} ${contextKey(gen)}`;
  let draws = kept.get(key);
  if (draws === undefined) {
    draws = new Map();
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  } else kept.delete(key); // moved to the end: the most recently used
  kept.set(key, draws);
  return new KeptDraws(build(gen), draws);
}
