/** Wire types of the Context Assembly protocol (SPEC.md sections 2-8). */

export type Profile = 'tiered' | 'ranked';
export type Capability = 'working_context' | 'constraints' | 'lifecycle' | 'pinned' | 'omission_markers';
/** Every capability the reference implements, and declares in its manifest. */
export const CAPABILITIES: readonly Capability[] = ['working_context', 'constraints', 'lifecycle', 'pinned', 'omission_markers'];
/**
 * What `assemble(request)` applies when told nothing: every capability but
 * omission_markers, the four that change nothing for a request that does not
 * use them. So a plain request gets the lesson's answer, byte for byte, unless
 * markers are asked for (SPEC section 8).
 */
export const DEFAULT_CAPABILITIES: readonly Capability[] = ['working_context', 'constraints', 'lifecycle', 'pinned'];
export const PROFILES: readonly Profile[] = ['tiered', 'ranked'];

export type Status = 'active' | 'disputed' | 'superseded' | 'stale';
/** A block's lifecycle statuses (VAL-5), in the order validation indexes them. */
export const BLOCK_STATUSES: readonly Status[] = ['active', 'disputed', 'superseded', 'stale'];
export type Tier = 'working' | 'episodic' | 'longterm' | 'knowledge';

export interface Block {
  block_id: string;
  source: string;
  content: string;
  priority: number;
  created_at?: number;
  ttl_seconds?: number;
  pinned?: boolean;
  status?: Status;
  confidence?: number;
}

export interface Constraints {
  must_include?: string[];
  exclude?: string[];
  max_segments?: number | null;
  include_disputed?: boolean;
  include_superseded?: boolean;
  prefer_recency?: boolean;
  prefer_high_confidence?: boolean;
}

export interface Request {
  profile?: Profile;
  now: number;
  budget: number;
  blocks: Block[];
  constraints?: Constraints;
}

export interface Omission {
  block_id: string;
  reason: string;
}

export type SegmentReason = 'pinned' | 'required' | 'tier' | 'overflow' | 'rank';

export interface Segment {
  block_id: string;
  source: string;
  tier: Tier;
  tokens: number;
  score: number;
  reason: SegmentReason;
}

export type WarningCode =
  | 'empty_context'
  | 'truncated'
  | 'required_ref_omitted'
  | 'stale_consolidation'
  | 'disputed_memory_included'
  | 'superseded_memory_included'
  | 'eventual_consistency'
  | 'partial_hydration';

export interface Warning {
  code: WarningCode;
  block_id?: string;
  message?: string;
}

export interface CoreResult {
  context: string;
  included: string[];
  estimated_tokens: number;
  total_budget: number;
  omissions: Omission[];
}

export interface WorkingContextMembers {
  segments: Segment[];
  truncated: boolean;
  warnings: Warning[];
  generated_at: number;
}

export type Result = CoreResult & Partial<WorkingContextMembers>;

export type ErrorCode = 'invalid_request' | 'pinned_overflow';

export interface ErrorAnswer {
  error: { code: ErrorCode; message: string; problems?: Problem[] };
}

/** One validation problem: a JSON Pointer into the request and what is wrong there. */
export interface Problem {
  path: string;
  message: string;
}

export interface AssembleOptions {
  /** The capabilities to apply (default: DEFAULT_CAPABILITIES, every one but omission_markers). */
  capabilities?: readonly Capability[];
  /** Declared constants of profile `tiered` (SPEC section 17); absent: the specification's. */
  constants?: TieredConstants;
}

/**
 * The table constants of profile `tiered` an implementation may declare in
 * its manifest (SPEC section 17); an absent member is the specification's.
 */
export interface TieredConstants {
  /** NUM-2's divisor: an integer from 1 to 16. */
  chars_per_token?: number;
  /** TIER-2: a whole percentage for every tier, summing to at most 100. */
  tier_fractions?: Readonly<Record<Tier, number>>;
  /** TIER-1: sources added to the map or moved to another tier (case-sensitive). */
  source_to_tier?: Readonly<Record<string, Tier>>;
}

export function isErrorAnswer(x: unknown): x is ErrorAnswer {
  return typeof x === 'object' && x !== null && 'error' in x;
}
