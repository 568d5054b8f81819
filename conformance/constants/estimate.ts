/**
 * The token estimate as a family of candidates: characters per token, a
 * rounding, and a floor of 1 or 0. The probe keeps the candidates that agree
 * with every observed cost.
 */
import { CHARS_PER_TOKEN } from '../../reference/index.js';

export type Rounding = 'floor' | 'ceil' | 'round half up' | 'round half to even';

export interface Estimator {
  charsPerToken: number;
  rounding: Rounding;
  minimum: 0 | 1;
}

export const SPEC_ESTIMATOR: Estimator = { charsPerToken: CHARS_PER_TOKEN, rounding: 'floor', minimum: 1 };

const ROUNDINGS: Rounding[] = ['floor', 'ceil', 'round half up', 'round half to even'];

function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d < 0.5) return f;
  if (d > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

export function cost(e: Estimator, length: number): number {
  const q = length / e.charsPerToken;
  const t =
    e.rounding === 'floor' ? Math.floor(q) : e.rounding === 'ceil' ? Math.ceil(q) : e.rounding === 'round half up' ? Math.floor(q + 0.5) : roundHalfEven(q);
  return Math.max(e.minimum, t);
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
