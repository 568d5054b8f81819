/** The clauses of the memory-api contract that ctxconform checks (SPEC section 16, ids MAPI-n). */

/**
 * One thing a run must have seen for a clause to count as tested, and the
 * reason given (`untested: ...`) when no exchange showed it. A clause with
 * several needs is tested only when every one was met: a half never put to
 * the test is no pass.
 */
export interface Need {
  facet: string;
  untested: string;
}

/** Something an exchange saw that explains an unmet need better: when the facet was seen, `says` is the reason instead of the need's. */
export interface Hint {
  facet: string;
  need: string;
  says: string;
}

export interface Clause {
  id: string;
  /** The report id is `contract/<name>`. */
  name: string;
  description: string;
  needs: readonly Need[];
  hints?: readonly Hint[];
}

export const CLAUSES = [
  {
    id: 'MAPI-1',
    name: 'answers',
    description: 'ingest, hydrate and assemble-context each answer 2xx with JSON of the documented shape within the time limit',
    needs: [{ facet: 'asked', untested: 'no exchange was attempted' }],
  },
  {
    id: 'MAPI-2',
    name: 'schema',
    description:
      "the assemble-context answer validates against the OpenAPI document's AssembleContextResponse schema (generatedAt a date-time, warning codes from the enum)",
    needs: [
      { facet: 'segments', untested: 'no answer had a segment, so the segment schema was never checked' },
      { facet: 'warnings', untested: 'no answer had a warning, so the warning schema was never checked' },
    ],
  },
  {
    id: 'MAPI-3',
    name: 'token-budget',
    description: "tokenEstimate, and the segments' cost by the service's estimator, <= budget.maxTokens - budget.reservedTokens",
    needs: [{ facet: 'pressed', untested: 'no answer with segments had candidates beyond the budget' }],
  },
  {
    id: 'MAPI-4',
    name: 'truncated-flag',
    description:
      'truncated is true when a candidate in play is represented by no segment, and false when the answer holds everything the service retrieves (nothing excluded)',
    needs: [
      { facet: 'left-out', untested: 'no answer left a candidate in play unrepresented' },
      { facet: 'complete', untested: 'no answer held everything the service retrieves with nothing excluded' },
    ],
  },
  {
    id: 'MAPI-5',
    name: 'truncated-warning',
    description: 'the truncated warning is present exactly when truncated is true',
    needs: [
      { facet: 'truncated', untested: 'no answer had truncated true' },
      { facet: 'untruncated', untested: 'no answer had truncated false' },
    ],
  },
  {
    id: 'MAPI-6',
    name: 'empty-context',
    description: 'the empty_context warning is present exactly when there are no segments',
    needs: [
      { facet: 'empty', untested: 'no answer was empty' },
      { facet: 'segments', untested: 'no answer had segments' },
    ],
  },
  {
    id: 'MAPI-7',
    name: 'required-ref-omitted',
    description: 'the required_ref_omitted warning is present exactly when a mustIncludeRefs ref is not among the segments',
    needs: [
      { facet: 'omitted', untested: 'no answer left a required ref out' },
      { facet: 'kept', untested: 'no answer held every required ref' },
    ],
  },
  {
    id: 'MAPI-8',
    name: 'excluded-refs',
    description: 'no excludedRefs ref appears among the segments',
    needs: [{ facet: 'retrieved', untested: 'no excluded ref was one the service retrieves for the task' }],
  },
  {
    id: 'MAPI-9',
    name: 'max-segments',
    description: 'at most maxSegments segments',
    needs: [{ facet: 'pressed', untested: 'the service never retrieved more memories than the segment cap' }],
  },
  {
    id: 'MAPI-10',
    name: 'verbatim-content',
    description:
      'every segment is an ingested memory of the scope with exactly the ingested content and a provenance naming ' +
      'what it was ingested with, or a memory derived only from memories ingested into the scope',
    needs: [{ facet: 'ingested', untested: 'no ingested memory came back as a segment, so no content was compared' }],
    hints: [
      {
        facet: 'not-string',
        need: 'ingested',
        says: 'ingested memories came back as segments, but with a content that is not a string (MAPI-2 reports it), so no content was compared',
      },
    ],
  },
  {
    id: 'MAPI-11',
    name: 'lifecycle-warnings',
    description: 'a disputed memory among the segments brings disputed_memory_included, a superseded one superseded_memory_included',
    needs: [
      { facet: 'disputed', untested: 'no segment was a memory the service marks disputed' },
      { facet: 'superseded', untested: 'no segment was a memory the service marks superseded' },
    ],
  },
  {
    id: 'MAPI-12',
    name: 'deterministic',
    description: 'the same request twice against the same data gives the same segments in the same order',
    needs: [{ facet: 'order', untested: 'no answer had two segments or more, so their order was never compared' }],
  },
  {
    id: 'MAPI-13',
    name: 'status-filters',
    description:
      'no segment is a memory whose status the request keeps out (disputed with includeDisputed false, superseded with includeSuperseded false, tombstoned), unless mustIncludeRefs names it',
    needs: [
      { facet: 'disputed', untested: 'no memory the service marks disputed and retrieves for the task was kept out by includeDisputed false' },
      { facet: 'superseded', untested: 'no memory the service marks superseded and retrieves for the task was kept out by includeSuperseded false' },
    ],
  },
] as const satisfies readonly Clause[];

export type ClauseId = (typeof CLAUSES)[number]['id'];

/** A need of a clause as an exchange reports it: `MAPI-5:truncated`. */
export type Facet = `${ClauseId}:${string}`;

/** Where contract/answers' message carries a refusal the run worked around as the contract allows (`; fallback: ...`). */
export const FALLBACK_PREFIX = 'fallback: ';
