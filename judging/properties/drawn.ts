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
  /** The generator as drawing left it: a draw found kept leaves the generator there too, so what is drawn after it is as ever. */
  to: fc.Random;
  biasFactor: number | undefined;
}
const isDraw = (x: unknown): x is Draw => typeof x === 'object' && x !== null && (x as Draw).from instanceof fc.Random;

type Draws = Map<string, Draw>;
const kept = new Map<string, Draws>();

/**
 * Moves `mrng` to where `to` stands. fast-check's Random has no setter for its
 * state: it is the generator it wraps (`internalRng`, in the version the kit
 * pins), replaced here by a copy of `to`'s. False where that is not so, and
 * the draw is then made afresh.
 */
function moveTo(mrng: fc.Random, to: fc.Random): boolean {
  const target = mrng as unknown as { internalRng?: unknown };
  const source = to.clone() as unknown as { internalRng?: unknown };
  if (target.internalRng === undefined || source.internalRng === undefined) return false;
  target.internalRng = source.internalRng;
  return true;
}

/**
 * An arbitrary that draws as `arb` does and keeps each draw by the state it
 * started at, with the state it left the generator in: a property's whole
 * input, or a part of it drawn first or later (content-blindness draws the
 * request the differential draws, then its fillers).
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
    const kept = this.draws.get(key);
    if (kept !== undefined && moveTo(mrng, kept.to)) return new fc.Value(kept.value as T, kept);
    const from = mrng.clone();
    const value = this.arb.generate(mrng, biasFactor).value;
    const draw: Draw = { value, from, to: mrng.clone(), biasFactor };
    if (kept === undefined && this.draws.size < MAX_DRAWS) this.draws.set(key, draw);
    return new fc.Value(value, draw);
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
const contextKey = (gen: GenContext): string => JSON.stringify([gen.profiles, gen.capabilities, gen.constants ?? null, gen.design ?? null]);

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
