/**
 * The runner's own types: a golden case as the loader reads it, and the
 * judge's verdict. What other layers share lives in protocol/types.ts.
 */
import type { Status } from '../protocol/types.js';

export interface GoldenCase {
  /** Path under cases/ without `.yaml`, e.g. `expiry/boundary-equal`. Stable forever. */
  id: string;
  file: string;
  description: string;
  requirements: string[];
  /** `any`: the design-agnostic level (SPEC section 18): only design-agnostic expectations. */
  profile: 'tiered' | 'ranked' | 'any';
  /** The spec version since which the case holds (`v1`); `--spec vN` runs the cases with since <= vN. */
  since: string;
  capabilities: string[];
  tags: string[];
  request: unknown;
  expect: Expectation;
}

export interface Expectation {
  error?: 'invalid_request' | 'pinned_overflow';
  included?: string[];
  omissions?: Record<string, string>;
  omission_order?: string[];
  omissions_exact?: { block_id: string; reason: string }[];
  warnings?: { code: string; block_id?: string }[];
  segments?: { block_id: string; source?: string; tier?: string; tokens?: number; score?: number; reason?: string }[];
  estimated_tokens?: number;
  total_budget?: number;
  truncated?: boolean;
  generated_at?: number;
  context?: string;
  context_contains?: string[];
  context_excludes?: string[];
  result_members?: string[];
  /** The any level (ANY-12): ids that must be included, ids that must not, and the class a given omission must have. */
  included_contains?: string[];
  included_excludes?: string[];
  omission_classes?: Record<string, string>;
}

/** The judge's word on one answer. */
export interface Verdict {
  status: Status;
  message?: string;
  expected?: unknown;
  actual?: unknown;
  /** Judged with declared constants: the matchers whose expected values came from the reference computed with them. */
  derived?: string[];
  /**
   * The requirements the verdict speaks for when they are not the case's own: a tiered case
   * judged by the principles (SPEC LVL-3) fails under the principles it breaks, not under
   * tiered's rules, which the implementation does not claim.
   */
  requirements?: string[];
  /** The principles the answer broke (SPEC section 18), said apart from what the case tests. */
  broke?: string[];
}
