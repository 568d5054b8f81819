/**
 * Diagnosis: name the cause of a run's failures from a catalogue of known
 * defects, each an exact model of one way to get the spec wrong.
 */
export { CATALOGUE, reachOf } from './catalogue.js';
export { SECTIONS } from './defect.js';
export type { CatalogueEntry, Feature, Section } from './catalogue.js';
export { FAMILIES } from './families.js';
export type { Family, Instance } from './families.js';
export { diagnose, diagnosisMemo, featuresOf, keptAnswer } from './diagnose.js';
export type { Cause, Diagnosis, DiagnoseOptions, DiagnosisMemo, Observation } from './diagnose.js';
export { modelAssemble } from './model.js';
export type { Answer, Defects, ModelConfig, Site, ValidationMemo } from './model.js';
export { asOutcome, reproduces } from './compare.js';
export { caseObservation, unanswered } from './observations.js';
export { recordedObservation } from './recorded.js';
export { ObservationLog, STREAM_LIMITS } from './log.js';
export type { LogCounts, LogLimits } from './log.js';
