import { CHARS_PER_TOKEN, SPEC_COUNT, SPEC_TIERS, shareOf, TIER_PERCENT, tierIn } from './design.js';
import type { Tier } from '../protocol/assembly.js';
import { codePointLength } from './unicode.js';

/** SPEC NUM-2: max(1, floor(codepoints / 4)); an empty string costs 1. Declared constants may change the 4 (section 17). */
export function estimateTokens(s: string, charsPerToken: number = CHARS_PER_TOKEN): number {
  return tokensFor(codePointLength(s), charsPerToken);
}

/** NUM-2 for a string of this many code points: the design's counting rule (design.ts countTokens) on the fast path. */
export function tokensFor(codePoints: number, charsPerToken: number = SPEC_COUNT.charsPerToken): number {
  const t = Math.floor(codePoints / charsPerToken);
  return Math.max(t, SPEC_COUNT.minimum);
}

/** SPEC TIER-1: the tier of a source (own property only: `constructor` is just another source). */
export function tierOf(source: string): Tier {
  return tierIn(SPEC_TIERS, source);
}

/** SPEC NUM-3: a tier's budget, floor(B * pct / 100) exactly (design.ts shareOf), with TIER-2's shares or declared ones (section 17). */
export function tierBudget(budget: number, tier: Tier, percent: Readonly<Record<Tier, number>> = TIER_PERCENT): number {
  return shareOf(budget, percent[tier]);
}
