/**
 * The reference assembler: the oracle every implementation is judged against.
 *
 * Pure: no I/O, no clock, no randomness; the same request gives the same bytes.
 */
import { assembleRanked } from './ranked.js';
import { assembleTiered } from './tiered.js';
import type { Capability, ErrorAnswer, Problem, Result } from '../protocol/assembly.js';
import { DEFAULT_CAPABILITIES } from './options.js';
import type { AssembleOptions } from './options.js';
import { withKeptArrays } from './block-arrays.js';
import { constantsProblems, SPEC_TUNING, tuningOf } from './tuning.js';
import type { ContentLengths } from './lengths.js';
import { readRequest } from './validate.js';

export * from './constants.js';
export * from '../protocol/assembly.js';
export * from './options.js';
export {
  compareRank,
  countingEstimator,
  countTokens,
  designOf,
  designTables,
  RANKING_POOL_ORDER,
  SPEC_COUNT,
  SPEC_DESIGN,
  SPEC_RENDER,
  SPEC_TIERS,
  shareOf,
  tierIn,
} from './design.js';
export type { CountRule, Design, DesignConstants, Estimator, HeaderBlock, PoolOrder, RankKey, RankPreferences, Render, Rounding, TierTable } from './design.js';
export { estimateTokens, tokensFor, tierOf, tierBudget } from './estimate.js';
// The specification's tables are its design's (design.ts), exported from there alone.
export { CHARS_PER_TOKEN, DEFAULT_TIER, HEADER_SEPARATOR, SEGMENT_JOINER, SOURCE_TO_TIER, TIER_FRACTIONS, TIER_PERCENT, TIERS, isExpired } from './design.js';
export { codePointLength, compareCodePoints } from './unicode.js';
export { ContentLengths } from './lengths.js';
export { pointer } from './validate.js';
export { utcDate } from './ranked.js';
export { constantsProblems, MAX_CHARS_PER_TOKEN } from './tuning.js';

export const KIT_NAME = 'ctxconform-reference';

/**
 * The manifest of assemble(request) as called without options: both profiles
 * and DEFAULT_CAPABILITIES. The kit's built-in reference run declares
 * omission_markers as well (adapters/reference.ts), and passes it.
 */
export function describe(): { name: string; version: string; language: string; profiles: string[]; capabilities: string[] } {
  return { name: KIT_NAME, version: '1.0.0', language: 'typescript', profiles: ['tiered', 'ranked'], capabilities: [...DEFAULT_CAPABILITIES] };
}

/**
 * SPEC section 3: every problem of a request, each with the JSON Pointer of the member at fault; [] for a valid one.
 * `lengths`: a table the caller keeps for the request's contents (ContentLengths).
 */
export function validateRequest(request: unknown, lengths?: ContentLengths): Problem[] {
  return withKeptArrays(() => readRequest(request, lengths).problems);
}

export function invalidRequest(problems: Problem[]): ErrorAnswer {
  const first = problems[0];
  const head = first ? `${first.path || '(request)'}: ${first.message}` : 'invalid request';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return { error: { code: 'invalid_request', message: head + more, problems } };
}

/**
 * Assemble a context. Returns the result, or an error answer for an invalid
 * request or a pinned overflow; never throws, whatever `request` holds.
 * `options.constants` are declared constants of `tiered` (SPEC section 17);
 * invalid ones are answered `invalid_request` naming `options.constants`,
 * since no answer can be computed with them.
 */
export function assemble(request: unknown, options: AssembleOptions = {}): Result | ErrorAnswer {
  try {
    const declared = options.constants;
    if (declared !== undefined) {
      const wrong = constantsProblems(declared);
      if (wrong.length > 0) return invalidRequest(wrong.map((p) => ({ path: '', message: `options.constants${p.path}: ${p.message}` })));
    }
    const tuning = declared === undefined ? SPEC_TUNING : tuningOf(declared);
    return withKeptArrays(() => {
      const { problems, request: r } = readRequest(request, options.lengths);
      if (r === null) return invalidRequest(problems);
      if (r.profile === 'ranked') return assembleRanked(r);
      return assembleTiered(r, new Set<Capability>(options.capabilities ?? DEFAULT_CAPABILITIES), tuning);
    });
  } catch (e) {
    // Only a hostile in-process value gets here (a throwing getter, a revoked Proxy).
    return invalidRequest([{ path: '', message: `the request could not be read: ${e instanceof Error ? e.message : String(e)}` }]);
  }
}
