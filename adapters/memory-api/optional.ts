/**
 * The parts of the kit's requests a memory service can do without
 * (SPEC section 16, MAPI-1): when one of them breaks an operation, the call is
 * made again without it, and so is every later one, so one broken part does
 * not hide the rest of the contract. Some refusals are the contract's own
 * (strong consistency refused with `unsupported_consistency`; a
 * `constraints.maxSegments` the OpenAPI document does not define): those are
 * noted, not failures. The others fail MAPI-1 once, and the run goes on.
 */
import type { Outcome } from '../../protocol/types.js';
import type { AssembleContextRequest, IngestRequest } from './wire.js';

/** The error code a service gives when it cannot read with the consistency asked (SPEC section 16). */
export const UNSUPPORTED_CONSISTENCY = 'unsupported_consistency';

export interface OptionalPart<R> {
  /** How a note names it: `dedupeKey`, `consistency "strong"`. */
  name: string;
  /** What is sent instead, for the note. */
  instead: string;
  present(request: R): boolean;
  without(request: R): R;
  /** A refusal the contract allows (noted, no MAPI-1 failure); `status` is the HTTP status of the refusal. */
  allowed(refusal: Outcome, status: number | undefined): boolean;
}

/** A part left out from some point of a run on: why, and whether that refusal broke the contract. */
export interface Fallback {
  op: 'ingest' | 'assemble-context';
  part: string;
  instead: string;
  /** The refusal's error code, and what the outcome said (HTTP status first). */
  code: string;
  cause: string;
  /** The contract allows this refusal: a note, not a MAPI-1 failure. */
  allowed: boolean;
}

const errorCode = (o: Outcome): string | undefined => (o.kind === 'error' ? String(o.code) : undefined);

export const INGEST_PARTS: readonly OptionalPart<IngestRequest>[] = [
  {
    // The OpenAPI IngestEpisode requires it, the data model calls it optional: a service that breaks on it broke MAPI-1, and the kit can test the rest without it.
    name: 'dedupeKey',
    instead: 'no dedupeKey',
    present: (r) => r.episodes.some((e) => e.dedupeKey !== undefined),
    without: (r) => ({ ...r, episodes: r.episodes.map(({ dedupeKey: _, ...e }) => e) }),
    allowed: () => false,
  },
  {
    name: 'consistency "indexed"',
    instead: 'no consistency',
    present: (r) => r.consistency !== undefined,
    without: ({ consistency: _, ...r }) => r,
    allowed: () => false,
  },
];

export const ASSEMBLE_PARTS: readonly OptionalPart<AssembleContextRequest>[] = [
  {
    name: 'consistency "strong"',
    instead: 'consistency "eventual"',
    present: (r) => r.consistency === 'strong',
    without: (r) => ({ ...r, consistency: 'eventual' }),
    allowed: (o) => errorCode(o) === UNSUPPORTED_CONSISTENCY,
  },
  {
    // The OpenAPI ContextConstraints has no maxSegments (the context-assembly schema has): a service validating against the OpenAPI document may refuse it; budget.maxSegments still carries the cap.
    name: 'constraints.maxSegments',
    instead: 'the cap in budget.maxSegments only',
    present: (r) => r.constraints?.maxSegments !== undefined,
    without: (r) => {
      const { maxSegments: _, ...constraints } = r.constraints ?? {};
      const { constraints: __, ...rest } = r;
      return Object.keys(constraints).length ? { ...rest, constraints } : rest;
    },
    allowed: (o, status) => o.kind === 'error' && status !== undefined && status >= 400 && status < 500,
  },
];

/**
 * An answer that refused the request (an error answer or rejected items), not
 * a transport failure: worth a try without an optional part. A refused
 * credential (401, 403) is about the caller, not about any part of the body.
 */
export function isRefusal(o: Outcome, status: number | undefined): boolean {
  return o.kind === 'error' && status !== 401 && status !== 403;
}

/** How a note says what happened: once, in contract/answers. */
export function fallbackNote(f: Fallback): string {
  return f.allowed
    ? `the service refused ${f.part} with ${f.code} (${f.cause}), so ${f.op} was asked again with ${f.instead}, as every later call was`
    : `${f.op} broke on ${f.part}: ${f.cause}; sent with ${f.instead}, it answered, and every later ${f.op} call was sent that way`;
}
