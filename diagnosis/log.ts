/**
 * What a run keeps for its diagnosis: the observations of its judged results,
 * in memory, without touching the results themselves. A run of golden cases
 * keeps them all. A replay of a million requests keeps a bounded number, so
 * it still streams in constant memory: the first failing ones in file order
 * (those the report lists first) and a sample of the passing ones, chosen by
 * a hash of the id, so the same requests are kept whatever order they were
 * answered in (docs/diagnosis.md, "What a replay's diagnosis sees").
 */
import type { Observation } from './diagnose.js';

export interface LogLimits {
  /** Failing observations kept (the first by order). */
  failing: number;
  /** Passing observations kept (a sample by the hash of their id). */
  passing: number;
}

/** How many of each the log was given and how many it kept. */
export interface LogCounts {
  failing: number;
  passing: number;
  keptFailing: number;
  keptPassing: number;
}

type Order = readonly number[];

interface Entry {
  o: Observation;
  order: Order;
  /** The sort key of the bound: the order for failing observations, the hash for passing ones. */
  key: readonly number[];
}

const compare = (a: readonly number[], b: readonly number[]): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
};

/** FNV-1a over the UTF-16 units: a stable, well-spread sample key. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The `max` entries of smallest key, in a sorted array (a bound is small; most entries past it are refused at once). */
class Bounded {
  readonly kept: Entry[] = [];
  constructor(private readonly max: number) {}
  add(e: Entry): void {
    if (this.max <= 0) return;
    const k = this.kept;
    if (k.length >= this.max && compare(e.key, k[k.length - 1]!.key) >= 0) return;
    let lo = 0;
    let hi = k.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(k[mid]!.key, e.key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    k.splice(lo, 0, e);
    if (k.length > this.max) k.pop();
  }
}

export const UNBOUNDED: LogLimits = { failing: Infinity, passing: Infinity };
/**
 * A replay's and a sweep's bound: enough failures to name a cause and to tell
 * two apart, and enough passing requests to contradict one, for a diagnosis
 * of about a second (bench/diagnose.bench.ts).
 */
export const STREAM_LIMITS: LogLimits = { failing: 200, passing: 400 };

export class ObservationLog {
  private readonly failing: Bounded;
  private readonly passing: Bounded;
  private counts = { failing: 0, passing: 0 };
  private next = 0;

  constructor(readonly limits: LogLimits = UNBOUNDED) {
    this.failing = new Bounded(limits.failing);
    this.passing = new Bounded(limits.passing);
  }

  /** `order`: where the result stands in the run (a replay: file and line); default, the order of adding. */
  add(o: Observation, order: Order = [this.next++]): void {
    if (o.passed) {
      this.counts.passing++;
      this.passing.add({ o, order, key: [hash(o.id), ...order] });
    } else {
      this.counts.failing++;
      this.failing.add({ o, order, key: order });
    }
  }

  /** The kept observations, in run order. */
  observations(): Observation[] {
    return [...this.failing.kept, ...this.passing.kept].sort((a, b) => compare(a.order, b.order)).map((e) => e.o);
  }

  get seen(): LogCounts {
    return { ...this.counts, keptFailing: this.failing.kept.length, keptPassing: this.passing.kept.length };
  }
}
