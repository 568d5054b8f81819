/** SPEC TIER-7: the originating text of a budget omission in `tiered`. */
export const REASON_TIER_BUDGET = 'tier budget exhausted; overflow pool exhausted';
export const REASON_EXPIRED = 'expired';
export const REASON_EXCLUDED = 'excluded';
export const REASON_SUPERSEDED = 'superseded';
export const REASON_DISPUTED = 'disputed';
export const REASON_BUDGET = 'budget_exhausted';
export const REASON_MAX_SEGMENTS = 'max_segments';

/** SPEC RANK-2: the header of the recalled-beliefs packer (119 code points). */
export const RANKED_HEADER = 'Here is what you remember about this user. These are recalled beliefs, not verified facts, and some may be out of date:';

/** SPEC MRK-2: the line of an omission marker after the block's header, by reason class. */
export const MARKER_OVER_BUDGET = '[OMITTED: over token budget]';
export const MARKER_OVER_SEGMENTS = '[OMITTED: over segment limit]';

/** Largest budget accepted: 2^53 - 1, the largest integer every JSON reader keeps exact. */
export const MAX_BUDGET = Number.MAX_SAFE_INTEGER;

/** Dates the `ranked` profile can print as YYYY-MM-DD: 0001-01-01 .. 9999-12-31 UTC (VAL-9). */
export const MIN_DATED_SECONDS = -62135596800;
/** Exclusive: every instant of 9999-12-31 prints, 253402300799.5 included. */
export const END_OF_DATED_SECONDS = 253402300800;
