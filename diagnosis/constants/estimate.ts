/**
 * The token estimate as a family of candidates: characters per token, a
 * rounding, and a floor of 1 or 0. The probe keeps the candidates that agree
 * with every observed cost.
 */
import { countTokens, SPEC_COUNT } from '../../reference/index.js';
import type { CountRule, Rounding } from '../../reference/index.js';

/** A candidate estimator is one of the design's counting rules (reference/design.ts). */
export type Estimator = CountRule;

export const SPEC_ESTIMATOR: Estimator = SPEC_COUNT;

const ROUNDINGS: Rounding[] = ['floor', 'ceil', 'round half up', 'round half to even'];

export function cost(e: Estimator, length: number): number {
  return countTokens(e, length);
}

/** The estimator expected: the spec's, with a declared chars per token (SPEC section 17). */
export function expectedEstimator(charsPerToken: number = SPEC_ESTIMATOR.charsPerToken): Estimator {
  return { ...SPEC_ESTIMATOR, charsPerToken };
}

/** Every candidate, the expected one first so that it wins when the observations cannot tell. */
export function candidates(maxCharsPerToken = 8, expected: Estimator = SPEC_ESTIMATOR): Estimator[] {
  const out: Estimator[] = [expected];
  for (let c = 1; c <= maxCharsPerToken; c++) {
    for (const rounding of ROUNDINGS) {
      for (const minimum of [1, 0] as const) {
        if (c === expected.charsPerToken && rounding === expected.rounding && minimum === expected.minimum) continue;
        out.push({ charsPerToken: c, rounding, minimum });
      }
    }
  }
  return out;
}

/** The shortest length whose cost is exactly `tokens`, or undefined when none is (e.g. 0 with a floor of 1). */
export function lengthForCost(e: Estimator, tokens: number): number | undefined {
  let n = Math.max(0, (tokens - 1) * e.charsPerToken - e.charsPerToken);
  const limit = (tokens + 2) * e.charsPerToken;
  for (; n <= limit; n++) if (cost(e, n) === tokens) return n;
  return undefined;
}

export function describeRounding(e: Estimator): string {
  return `${e.rounding}, at least ${e.minimum}`;
}
