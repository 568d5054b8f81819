/**
 * Running: golden cases, properties and the contract against one implementation, from opening it to the report.
 *
 * - transports.ts, transports/, open.ts: the registry of every way to reach an implementation, and opening one.
 * - run.ts, repeat.ts, sent.ts, filter.ts, observe.ts, envelope.ts: the suite run, its rounds and its report.
 * - contract-run.ts: the memory-api contract (contract/) driven for a judging command.
 * - conclude.ts with likely-cause.ts and run-notes.ts: what the results become after the run, in one call.
 * - console.ts: what a run prints; vitest.ts: the suite inside a vendor's vitest; demo.ts, tokens.ts: the demo
 *   artifact and the token estimate against real tokenizers.
 *
 * This index names the parts and exports nothing.
 */
