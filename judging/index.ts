/**
 * Judging: what a verdict on an answer is, for a golden case, a principle, a property and a baseline.
 *
 * - cases/: the golden cases (YAML, case.schema.json), loaded, filtered and precompiled.
 * - judge.ts with expectation.ts, matchers.ts, markers.ts, partition.ts: one answer against one golden case.
 * - principles/: the any level (SPEC section 18): one answer against what every design owes.
 * - properties/: random requests, each failure shrunk to the smallest request that shows it.
 * - baseline.ts: known failures, so that only new ones fail a run.
 *
 * Pure but for reading case files: running/ sends the requests. This index names the parts and exports nothing.
 */
