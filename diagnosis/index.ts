/**
 * Diagnosis: why an implementation fails, from a catalogue of known defects, and what its constants are.
 *
 * The cause of a run's failures is named from a catalogue of known defects,
 * each an exact model of one way to get the spec wrong (catalogue.ts,
 * defect-registry.ts, defects/, model.ts, hooks.ts); the principles' failures
 * are read by the principle they break (principles.ts, splits.ts); and
 * constants/ infers an implementation's constants from black-box answers.
 */
export { CATALOGUE, reachOf } from './catalogue.js';
export { SECTIONS } from './defect-registry.js';
export type { CatalogueEntry, Feature, Section } from './defect-registry.js';
export { FAMILIES } from './families.js';
export type { Family, Instance } from './families.js';
export { diagnose, diagnosisMemo, featuresOf, keptAnswer } from './diagnose.js';
export type { Cause, Diagnosis, DiagnoseOptions, DiagnosisMemo, Observation } from './diagnose.js';
export { modelAssemble } from './model.js';
export type { Answer, Defects, ModelConfig, ValidationMemo } from './model.js';
export type { Site } from './hooks.js';
export { asOutcome, reproduces } from './compare.js';
export { caseObservation, unanswered } from './observations.js';
export { recordedObservation } from './recorded.js';
export { ObservationLog, STREAM_LIMITS } from './log.js';
export type { LogCounts, LogLimits } from './log.js';
