/**
 * The wire types of Context Assembly (SPEC.md sections 2-9): the request, its
 * blocks and constraints, the result and the error answer, and the table
 * constants an implementation may declare (section 17). The reference, the
 * adapters, the judge and the report all use these, from here.
 */

export type Profile = 'tiered' | 'ranked';
export type Capability = 'working_context' | 'constraints' | 'lifecycle' | 'pinned' | 'omission_markers';
/** Every capability of profile tiered (SPEC section 8); the reference implements and declares them all. */
export const CAPABILITIES: readonly Capability[] = ['working_context', 'constraints', 'lifecycle', 'pinned', 'omission_markers'];
export const PROFILES: readonly Profile[] = ['tiered', 'ranked'];

/** A block's lifecycle status (VAL-5, section 8.3); not a case's status, which is `Status`. */
export type BlockStatus = 'active' | 'disputed' | 'superseded' | 'stale';
/** A block's lifecycle statuses (VAL-5), in the order validation indexes them. */
export const BLOCK_STATUSES: readonly BlockStatus[] = ['active', 'disputed', 'superseded', 'stale'];
export type Tier = 'working' | 'episodic' | 'longterm' | 'knowledge';

export interface Block {
  block_id: string;
  source: string;
  content: string;
  priority: number;
  created_at?: number;
  ttl_seconds?: number;
  pinned?: boolean;
  status?: BlockStatus;
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

/** The members of each kind the specification defines (REQ-3), every one of its type (a record of them is complete or does not compile). */
const membersOf = <T>(all: Record<keyof T, true>): readonly string[] => Object.keys(all);
export const REQUEST_MEMBERS = membersOf<Request>({ profile: true, now: true, budget: true, blocks: true, constraints: true });
export const BLOCK_MEMBERS = membersOf<Block>({
  block_id: true,
  source: true,
  content: true,
  priority: true,
  created_at: true,
  ttl_seconds: true,
  pinned: true,
  status: true,
  confidence: true,
});
export const CONSTRAINT_MEMBERS = membersOf<Constraints>({
  must_include: true,
  exclude: true,
  max_segments: true,
  include_disputed: true,
  include_superseded: true,
  prefer_recency: true,
  prefer_high_confidence: true,
});

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

/**
 * The table constants of profile `tiered` an implementation may declare in its
 * manifest (SPEC section 17, manifest.schema.json#/$defs/Constants); an absent
 * member is the specification's. The reference takes the same shape.
 */
export interface DeclaredConstants {
  /** NUM-2's divisor: an integer from 1 to 16. */
  chars_per_token?: number;
  /** TIER-2: a whole percentage for every tier, summing to at most 100. */
  tier_fractions?: Readonly<Record<Tier, number>>;
  /** TIER-1: sources added to the map or moved to another tier (case-sensitive). */
  source_to_tier?: Readonly<Record<string, Tier>>;
}
