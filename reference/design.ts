/**
 * A design's variable parts, in one place: what a block costs, how blocks
 * rank, the tier table and its budgets, the order the overflow pool walks,
 * when a block has expired, and how the context is rendered. Everything else
 * about profile `tiered` is fixed by the specification.
 *
 * SPEC_DESIGN is the specification's design, and the tables and constants it
 * is made of are exported from here alone: the reference computes this design
 * on its fast path (tiered.ts reads these tables), declared constants
 * (section 17) are the same parts with other values (designOf), the
 * diagnosis model is the same parts behind named hooks a defect overrides,
 * and the mutant fixtures and the Python example derive their tables from
 * the export. Pure: no I/O.
 */
import type { Tier } from '../protocol/assembly.js';
import { codePointLength, compareCodePoints } from './unicode.js';

// ---------------------------------------------------------------- the specification's tables

/** SPEC NUM-2: the estimate divides code points by this. */
export const CHARS_PER_TOKEN = 4;

/** SPEC TIER-2: share of the budget per tier, as whole percentages (tier budgets use integer arithmetic, NUM-3). */
export const TIER_PERCENT: Readonly<Record<Tier, number>> = Object.freeze({
  working: 40,
  episodic: 20,
  longterm: 25,
  knowledge: 15,
});

/** The same shares as fractions (what the original publishes). */
export const TIER_FRACTIONS: Readonly<Record<Tier, number>> = Object.freeze({
  working: TIER_PERCENT.working / 100,
  episodic: TIER_PERCENT.episodic / 100,
  longterm: TIER_PERCENT.longterm / 100,
  knowledge: TIER_PERCENT.knowledge / 100,
});

/** Tier order: admission runs over tiers in this order (the order does not change the result). */
export const TIERS: readonly Tier[] = Object.freeze(['working', 'episodic', 'longterm', 'knowledge'] as Tier[]);

/** SPEC TIER-1: source name (case-sensitive) to tier; any other source is DEFAULT_TIER. */
export const SOURCE_TO_TIER: Readonly<Record<string, Tier>> = Object.freeze({
  memory: 'longterm',
  tactics: 'longterm',
  coverage: 'working',
  tool_results: 'working',
  episodes: 'episodic',
  session_summary: 'episodic',
  knowledge: 'knowledge',
  waf_info: 'knowledge',
});

export const DEFAULT_TIER: Tier = 'working';

/** Segment header separator in `tiered` rendering: U+00B7 MIDDLE DOT with spaces (REN-2). */
export const HEADER_SEPARATOR = ' \u00b7 ';
/** REN-3: what joins two rendered blocks. */
export const SEGMENT_JOINER = '\n\n';

// ---------------------------------------------------------------- the parts

/** How a count of length units becomes tokens (NUM-2: floor, at least 1). */
export type Rounding = 'floor' | 'ceil' | 'round half up' | 'round half to even';

/** A counting estimator: length units divided by a number, rounded, with a floor. */
export interface CountRule {
  charsPerToken: number;
  rounding: Rounding;
  minimum: 0 | 1;
}

/** SPEC NUM-2: max(1, floor(codepoints / 4)). */
export const SPEC_COUNT: CountRule = Object.freeze({ charsPerToken: CHARS_PER_TOKEN, rounding: 'floor', minimum: 1 });

function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** The tokens of a string of `length` units under a counting rule. */
export function countTokens(rule: CountRule, length: number): number {
  const q = length / rule.charsPerToken;
  const t =
    rule.rounding === 'floor'
      ? Math.floor(q)
      : rule.rounding === 'ceil'
        ? Math.ceil(q)
        : rule.rounding === 'round half up'
          ? Math.floor(q + 0.5)
          : roundHalfEven(q);
  return Math.max(rule.minimum, t);
}

/** What a block costs: any function of its content (a counting rule, a declared tokenizer). */
export interface Estimator {
  cost(content: string): number;
}

/** A counting rule over code points (NUM-1) as an estimator. */
export function countingEstimator(rule: CountRule = SPEC_COUNT, length: (s: string) => number = codePointLength): Estimator {
  return { cost: (content) => countTokens(rule, length(content)) };
}

/** What the ranking key reads of a block (TIER-3, CON-6). */
export interface RankKey {
  priority: number;
  confidence: number;
  createdAt: number;
  id: string;
}

/** The ranking key's optional middle members (SPEC CON-6). */
export interface RankPreferences {
  prefer_high_confidence: boolean;
  prefer_recency: boolean;
}

/** SPEC TIER-3 / CON-6: (-priority, [-confidence], [-created_at], block_id by code points). */
export function compareRank(x: RankKey, y: RankKey, p: RankPreferences): number {
  if (x.priority !== y.priority) return x.priority > y.priority ? -1 : 1;
  if (p.prefer_high_confidence && x.confidence !== y.confidence) return x.confidence > y.confidence ? -1 : 1;
  if (p.prefer_recency && x.createdAt !== y.createdAt) return x.createdAt > y.createdAt ? -1 : 1;
  return compareCodePoints(x.id, y.id);
}

/** The tier table: the shares, the source map and the tier of a source it does not list (TIER-1, TIER-2). */
export interface TierTable {
  readonly order: readonly Tier[];
  /** Whole percentages by tier, summing to at most 100. */
  readonly percent: Readonly<Record<Tier, number>>;
  readonly sourceToTier: Readonly<Record<string, Tier>>;
  readonly unlisted: Tier;
}

export const SPEC_TIERS: TierTable = Object.freeze({ order: TIERS, percent: TIER_PERCENT, sourceToTier: SOURCE_TO_TIER, unlisted: DEFAULT_TIER });

/** TIER-1 under a table (own property only: `constructor` is just another source). */
export function tierIn(table: TierTable, source: string): Tier {
  return Object.hasOwn(table.sourceToTier, source) ? table.sourceToTier[source]! : table.unlisted;
}

/**
 * SPEC NUM-3: floor(B * pct / 100) exactly, for every B up to 2^53 - 1 and
 * every whole pct from 0 to 100. B * pct can pass 2^53, so split
 * B = 100q + r: q*pct is exact and r*pct is small.
 */
export function shareOf(budget: number, pct: number): number {
  const q = Math.floor(budget / 100);
  const r = budget - q * 100;
  return q * pct + Math.floor((r * pct) / 100);
}

/** SPEC EXP-1: expired when ttl > 0 and now is strictly after created_at + ttl. */
export function isExpired(now: number, createdAt: number, ttl: number): boolean {
  return ttl > 0 && now > createdAt + ttl;
}

/** What a header shows of a block. */
export interface HeaderBlock {
  source: string;
  block_id: string;
}

/** How the context is written: each block's header, what joins blocks, and the context when no block is included. */
export interface Render {
  header(block: HeaderBlock): string;
  separator: string;
  empty: string;
}

/** SPEC REN-2, REN-3: "[" + source + " · " + block_id + "]\n" + content, joined by "\n\n"; nothing when empty. */
export const SPEC_RENDER: Render = Object.freeze({
  header: (b: HeaderBlock): string => '[' + b.source + HEADER_SEPARATOR + b.block_id + ']\n',
  separator: SEGMENT_JOINER,
  empty: '',
});

/** The order the overflow pool walks the blocks the tiers set aside (TIER-7: the ranking order they were set aside in). */
export type PoolOrder = <T>(aside: readonly T[]) => readonly T[];

export const RANKING_POOL_ORDER: PoolOrder = (aside) => aside;

/** A design of profile `tiered`: its variable parts. */
export interface Design {
  estimator: Estimator;
  /** The counting rule behind `estimator`, when it is one (the reference's fast path counts with it). */
  count?: CountRule;
  rank: (x: RankKey, y: RankKey, p: RankPreferences) => number;
  tiers: TierTable;
  /** A tier's budget out of what is left after pinned and required blocks. */
  tierBudget: (budget: number, pct: number) => number;
  poolOrder: PoolOrder;
  expired: (now: number, createdAt: number, ttl: number) => boolean;
  render: Render;
}

/** The specification's design. */
export const SPEC_DESIGN: Design = Object.freeze({
  estimator: countingEstimator(SPEC_COUNT),
  count: SPEC_COUNT,
  rank: compareRank,
  tiers: SPEC_TIERS,
  tierBudget: shareOf,
  poolOrder: RANKING_POOL_ORDER,
  expired: isExpired,
  render: SPEC_RENDER,
});

/** The values section 17 lets a manifest declare (checked elsewhere: tuning.ts). */
export interface DesignConstants {
  chars_per_token?: number;
  tier_fractions?: Readonly<Record<Tier, number>>;
  source_to_tier?: Readonly<Record<string, Tier>>;
}

/**
 * The specification's design with declared constants (SPEC section 17): the
 * estimate's divisor, the tier shares, and sources added to or moved in the
 * map. A declared source named `__proto__` is a source like any other.
 */
export function designOf(constants: DesignConstants, base: Design = SPEC_DESIGN): Design {
  const { chars_per_token, tier_fractions, source_to_tier } = constants;
  if (chars_per_token === undefined && tier_fractions === undefined && source_to_tier === undefined) return base;
  const count = chars_per_token === undefined || base.count === undefined ? base.count : { ...base.count, charsPerToken: chars_per_token };
  let sourceToTier = base.tiers.sourceToTier;
  if (source_to_tier !== undefined) {
    const map: Record<string, Tier> = Object.create(null);
    for (const [s, t] of Object.entries(base.tiers.sourceToTier)) map[s] = t;
    for (const [s, t] of Object.entries(source_to_tier)) map[s] = t;
    sourceToTier = map;
  }
  return {
    ...base,
    ...(count !== base.count && count !== undefined ? { count, estimator: countingEstimator(count) } : {}),
    tiers: { ...base.tiers, percent: tier_fractions ?? base.tiers.percent, sourceToTier },
  };
}

/** The specification's tables as plain data, for an implementation in another language (adapters/examples/python/design.json). */
export function designTables(): {
  chars_per_token: number;
  tier_percent: Record<Tier, number>;
  tiers: Tier[];
  source_to_tier: Record<string, Tier>;
  default_tier: Tier;
  header_separator: string;
  segment_joiner: string;
} {
  return {
    chars_per_token: CHARS_PER_TOKEN,
    tier_percent: { ...TIER_PERCENT },
    tiers: [...TIERS],
    source_to_tier: { ...SOURCE_TO_TIER },
    default_tier: DEFAULT_TIER,
    header_separator: HEADER_SEPARATOR,
    segment_joiner: SEGMENT_JOINER,
  };
}
