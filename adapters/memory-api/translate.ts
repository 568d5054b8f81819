/**
 * Translation between a ctxconform request and the memory-api calls, and back.
 * Pure: no I/O, so the contract checks and the tests see exactly what is sent.
 */
import type { Block, Request } from '../../protocol/assembly.js';
import type { ActorRef, AssembleContextRequest, IngestEpisode, MemoryRef, Scope, WorkingContext } from './wire.js';
import { refKey } from './wire.js';
import { DEFAULT_MARKER } from './marker.js';

export const TENANT = 'ctxconform';
export const KIT_ACTOR: ActorRef = { id: 'ctxconform', kind: 'tool' };
/** The contract leaves contentType free; the content is plain text in `content.text`. */
export const EPISODE_CONTENT_TYPE = 'text/plain';
/** The task when the marker is turned off (`--marker ''`) and no `--task` is given. */
export const UNMARKED_TASK = 'ctxconform conformance: assemble the recalled memories of this scope';

const UTF8 = new TextEncoder();

const KIT_FIELDS = ['block_id', 'source', 'priority', 'created_at', 'ttl_seconds', 'status', 'confidence', 'pinned'] as const;

export function scopeFor(runId: string, n: number): Scope {
  return { tenantId: TENANT, namespaceId: `ctxconform-${runId}-${n}` };
}

/** What the kit ingests for a block: its content and, after a space, the marker ('' leaves the content as it is). */
export function markedText(content: string, marker: string = DEFAULT_MARKER): string {
  if (marker === '') return content;
  return content === '' ? marker : `${content} ${marker}`;
}

/** The task sent: `--task`, else the marker, else (marker turned off) a fixed sentence. */
export function taskFor(o: { task?: string; marker?: string }): string {
  return o.task ?? ((o.marker ?? DEFAULT_MARKER) || UNMARKED_TASK);
}

export function toEpisode(b: Block, marker: string = DEFAULT_MARKER): IngestEpisode {
  const metadata: Record<string, unknown> = {};
  for (const k of KIT_FIELDS) if (b[k] !== undefined) metadata[k] = b[k];
  return { contentType: EPISODE_CONTENT_TYPE, content: { text: markedText(b.content, marker) }, dedupeKey: b.block_id, createdBy: KIT_ACTOR, metadata };
}

/** What ingest gave back: the ref of every block, both ways, and the episode written for it. */
export interface Ingested {
  scope: Scope;
  refByBlock: Map<string, MemoryRef>;
  blockByRef: Map<string, Block>;
  /** By refKey: exactly what was ingested (content checks compare with this, marker included). */
  episodeByRef: Map<string, IngestEpisode>;
}

/**
 * A must-include id with no block (CON-4's unknown id) still has to reach the
 * service, or its omission could not be reported: it goes as a ref that names
 * nothing in the scope.
 */
export function absentRef(scope: Scope, blockId: string): MemoryRef {
  return { id: `ctxconform-absent:${blockId}`, type: 'episode', scope };
}

export interface AssembleOptions {
  /** The task sent (default: the marker). */
  task?: string;
  /** The run marker appended to every ingested text (default DEFAULT_MARKER; '' for none). */
  marker?: string;
  /** Tokens the caller keeps for itself; sent as `reservedTokens`, added to `maxTokens`. */
  reservedTokens?: number;
}

export function toAssembleRequest(req: Request, ing: Ingested, o: AssembleOptions = {}): AssembleContextRequest {
  const c = req.constraints ?? {};
  // maxTokens has minimum 1 in the contract: a zero budget is sent as one token, all of it reserved.
  const reserved = Math.max(o.reservedTokens ?? 0, req.budget === 0 ? 1 : 0);
  const body: AssembleContextRequest = {
    scope: ing.scope,
    task: taskFor(o),
    budget: { maxTokens: req.budget + reserved, reservedTokens: reserved },
    // Sent explicitly so the kit's defaults (CON-7) hold whatever the service's defaults are.
    filters: { includeDisputed: c.include_disputed ?? true, includeSuperseded: c.include_superseded ?? false },
    consistency: 'strong',
  };
  const constraints: NonNullable<AssembleContextRequest['constraints']> = {};
  if (c.must_include?.length) constraints.mustIncludeRefs = c.must_include.map((id) => ing.refByBlock.get(id) ?? absentRef(ing.scope, id));
  if (c.exclude?.length) {
    // An excluded id with no block excludes nothing.
    const refs = c.exclude.flatMap((id) => ing.refByBlock.get(id) ?? []);
    if (refs.length) constraints.excludedRefs = refs;
  }
  if (typeof c.max_segments === 'number') {
    // The OpenAPI document puts maxSegments in the budget, the context-assembly schema also in constraints; the example request sends both.
    body.budget.maxSegments = c.max_segments;
    constraints.maxSegments = c.max_segments;
  }
  if (c.prefer_recency !== undefined) constraints.preferRecency = c.prefer_recency;
  if (c.prefer_high_confidence !== undefined) constraints.preferHighConfidence = c.prefer_high_confidence;
  if (Object.keys(constraints).length) body.constraints = constraints;
  return body;
}

/**
 * What the service retrieves for a request, with nothing pressing on it: the
 * same scope, task, filters and consistency, a budget no retrieved memory can
 * exceed, the request's required refs, and no cap, exclusions or
 * preferences. Its segments are the memories in play (SPEC section 16).
 */
export function unconstrainedRequest(sent: AssembleContextRequest, ing: Ingested): AssembleContextRequest {
  // No tokenizer counts more tokens than UTF-8 bytes; twice that leaves room for what the service derives.
  let bytes = 0;
  for (const e of ing.episodeByRef.values()) bytes += UTF8.encode(JSON.stringify(e.content)).length;
  const body: AssembleContextRequest = { scope: sent.scope, task: sent.task, budget: { maxTokens: 2 * bytes + 256 } };
  if (sent.filters) body.filters = sent.filters;
  // A required memory is in play even when the task alone would not find it (SPEC section 16, MAPI-4).
  if (sent.constraints?.mustIncludeRefs?.length) body.constraints = { mustIncludeRefs: sent.constraints.mustIncludeRefs };
  if (sent.consistency) body.consistency = sent.consistency;
  return body;
}

/**
 * The unconstrained request with the status filters opened (disputed and
 * superseded memories allowed): what the request's filters keep out is what
 * this answer holds beyond the unconstrained one (MAPI-13).
 */
export function filtersOpenedRequest(unconstrained: AssembleContextRequest): AssembleContextRequest {
  return { ...unconstrained, filters: { ...unconstrained.filters, includeDisputed: true, includeSuperseded: true } };
}

/**
 * The WorkingContext in the kit's terms, for the report. It is a view, not a
 * kit result: the service does not say why a memory was left out, so there
 * are no `omissions`, and golden cases are not judged against it.
 */
export function toKitView(req: Request, wc: WorkingContext, ing: Ingested): Record<string, unknown> {
  const raw = Array.isArray(wc.segments) ? wc.segments : [];
  const segments = raw.map((s) => {
    const block = s && typeof s === 'object' && s.ref ? ing.blockByRef.get(refKey(s.ref)) : undefined;
    return { block_id: block?.block_id ?? null, source: block?.source ?? null, score: s?.score, reason: s?.reason, ref: s?.ref };
  });
  const generated = typeof wc.generatedAt === 'string' ? Date.parse(wc.generatedAt) : NaN;
  return {
    context: raw.map((s) => s?.content).join('\n\n'),
    included: segments.map((s) => s.block_id),
    estimated_tokens: wc.tokenEstimate,
    total_budget: req.budget,
    segments,
    truncated: wc.truncated,
    warnings: wc.warnings,
    generated_at: Number.isFinite(generated) ? generated / 1000 : null,
  };
}
