/** The clauses of the memory-api contract that ctxconform checks (SPEC section 16, ids MAPI-n). */

export interface Clause {
  id: string;
  /** The report id is `contract/<name>`. */
  name: string;
  description: string;
}

export const CLAUSES = [
  { id: 'MAPI-1', name: 'answers', description: 'ingest, hydrate and assemble-context each answer 2xx with JSON of the documented shape within the time limit' },
  { id: 'MAPI-2', name: 'schema', description: 'the assemble-context answer validates against the published AssembleContextResponse schema (generatedAt a date-time, warning codes from the enum)' },
  { id: 'MAPI-3', name: 'token-budget', description: 'tokenEstimate <= budget.maxTokens - budget.reservedTokens' },
  { id: 'MAPI-4', name: 'truncated-flag', description: 'truncated is true exactly when a candidate memory of the scope (not excluded, not filtered out by its status) was left out' },
  { id: 'MAPI-5', name: 'truncated-warning', description: 'the truncated warning is present exactly when truncated is true' },
  { id: 'MAPI-6', name: 'empty-context', description: 'the empty_context warning is present exactly when there are no segments' },
  { id: 'MAPI-7', name: 'required-ref-omitted', description: 'the required_ref_omitted warning is present exactly when a mustIncludeRefs ref is not among the segments' },
  { id: 'MAPI-8', name: 'excluded-refs', description: 'no excludedRefs ref appears among the segments' },
  { id: 'MAPI-9', name: 'max-segments', description: 'at most maxSegments segments' },
  { id: 'MAPI-10', name: 'verbatim-content', description: 'every segment is a memory ingested into the scope, and its content is exactly the ingested text' },
  { id: 'MAPI-11', name: 'lifecycle-warnings', description: 'a disputed memory among the segments brings disputed_memory_included, a superseded one superseded_memory_included' },
  { id: 'MAPI-12', name: 'deterministic', description: 'the same request twice against the same data gives the same segments in the same order' },
] as const satisfies readonly Clause[];

export type ClauseId = (typeof CLAUSES)[number]['id'];

export function clause(id: ClauseId): Clause {
  return CLAUSES.find((c) => c.id === id)!;
}
