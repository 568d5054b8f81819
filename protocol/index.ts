/**
 * The ground floor: the wire vocabulary every folder shares, importing no other folder.
 *
 * - assembly.ts: the request and the answer (SPEC sections 2 to 6), the one home of the result types.
 * - types.ts: what an implementation declares (Manifest), what an adapter hands back (Outcome), the Report.
 * - schemas.ts, schemas/: their JSON Schemas, compiled once; verdict.ts, levels.ts: a report's verdict and levels.
 * - deep-json.ts, redact.ts, render-template.ts, write-file.ts, entries.ts, package-root.ts: the small tools of
 *   values, secrets, declared renders, files and registries that every floor needs.
 *
 * Each module is imported from its own file; this index names the parts and exports nothing.
 */
