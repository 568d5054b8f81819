import { CHARS_PER_TOKEN, DEFAULT_TIER, SOURCE_TO_TIER, TIER_PERCENT } from './constants.js';
import type { Tier } from '../protocol/assembly.js';
import { codePointLength } from './unicode.js';

/** SPEC NUM-2: max(1, floor(codepoints / 4)); an empty string costs 1. Declared constants may change the 4 (section 17). */
export function estimateTokens(s: string, charsPerToken: number = CHARS_PER_TOKEN): number {
  return tokensFor(codePointLength(s), charsPerToken);
}

/** NUM-2 for a string of this many code points. */
export function tokensFor(codePoints: number, charsPerToken: number = CHARS_PER_TOKEN): number {
  const t = Math.floor(codePoints / charsPerToken);
  return Math.max(t, 1);
}

/** SPEC TIER-1: the tier of a source (own property only: `constructor` is just another source). */
export function tierOf(source: string): Tier {
  return Object.hasOwn(SOURCE_TO_TIER, source) ? SOURCE_TO_TIER[source]! : DEFAULT_TIER;
}

/**
 * SPEC NUM-3: floor(B * pct / 100) exactly, for every B up to 2^53 - 1 and
 * every whole pct from 0 to 100 (TIER-2's, or declared ones, section 17).
 * B * pct can pass 2^53, so split B = 100q + r: q*pct is exact and r*pct is small.
 */
export function tierBudget(budget: number, tier: Tier, percent: Readonly<Record<Tier, number>> = TIER_PERCENT): number {
  const pct = percent[tier];
  const q = Math.floor(budget / 100);
  const r = budget - q * 100;
  return q * pct + Math.floor((r * pct) / 100);
}

/** SPEC EXP-1: expired when ttl > 0 and now is strictly after created_at + ttl. */
export function isExpired(now: number, createdAt: number, ttl: number): boolean {
  return ttl > 0 && now > createdAt + ttl;
}
