/**
 * The engine's shared words, below every room that uses them: each has its one home here.
 *
 * - spec.ts: the requirement ids of SPEC.md; levels.ts: the level each result speaks for.
 * - types.ts: a golden case and a verdict; defect.ts: what a failure is, as a baseline keys it.
 * - outcome-verdict.ts, reason-classes.ts, same-value.ts, first-difference.ts, capability-uses.ts: the readings
 *   of an answer that the judge, the properties, the principles and the diagnosis share.
 * - errors.ts, stopping.ts, yaml.ts, encodings.ts: the caller's errors, how a run stops, and the libraries
 *   loaded when first needed.
 *
 * Import each word from its own file; this index names them and exports nothing.
 */
