/**
 * The parts of the memory-runtime HTTP contract (memory-api v0) the adapter
 * speaks. Shapes follow the published OpenAPI document; only the members
 * ctxconform sends or reads are typed.
 */

export interface Scope {
  tenantId: string;
  namespaceId: string;
  agentId?: string;
  sessionId?: string;
}

export type MemoryType = 'episode' | 'atom' | 'consolidation' | 'link';

export interface MemoryRef {
  id: string;
  type: MemoryType;
  scope: Scope;
}

export interface ActorRef {
  id: string;
  kind: string;
}

export interface IngestEpisode {
  contentType: string;
  content: { text: string };
  /** Always sent first; left out for the rest of a run by a service whose ingest breaks on it (service.ts, SPEC section 16). */
  dedupeKey?: string;
  createdBy: ActorRef;
  metadata: Record<string, unknown>;
}

export interface IngestRequest {
  scope: Scope;
  episodes: IngestEpisode[];
  consistency?: 'accepted' | 'indexed';
}

export interface MemoryApiError {
  code: string;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

export interface IngestResult {
  ref: MemoryRef;
  status: 'created' | 'deduplicated' | 'rejected';
  error?: MemoryApiError;
}

export interface HydrateRequest {
  scope: Scope;
  refs: MemoryRef[];
  includeProvenance?: boolean;
}

export type MemoryStatus = 'active' | 'disputed' | 'superseded' | 'tombstoned' | 'pending' | 'failed';

export interface DurableMemoryObject {
  id: string;
  type: string;
  scope: Scope;
  status: MemoryStatus;
  content?: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export interface ContextBudget {
  maxTokens: number;
  maxSegments?: number;
  reservedTokens?: number;
}

export interface AssembleContextRequest {
  scope: Scope;
  task: string;
  budget: ContextBudget;
  filters?: { includeDisputed?: boolean; includeSuperseded?: boolean };
  constraints?: {
    mustIncludeRefs?: MemoryRef[];
    excludedRefs?: MemoryRef[];
    includeDisputed?: boolean;
    preferRecency?: boolean;
    preferHighConfidence?: boolean;
    /** Not in the OpenAPI document's ContextConstraints, but in the context-assembly schema and its example request. */
    maxSegments?: number;
  };
  consistency?: 'strong' | 'eventual';
}

export interface ContextSegment {
  ref: MemoryRef;
  content: string;
  score: number;
  reason: string;
  provenance: Record<string, unknown>;
}

export interface ContextWarning {
  code: string;
  message?: string;
}

export interface WorkingContext {
  scope: Scope;
  task: string;
  budget: ContextBudget;
  segments: ContextSegment[];
  tokenEstimate: number;
  truncated: boolean;
  warnings: ContextWarning[];
  generatedAt: string;
}

/** How refs are matched: the contract gives no other identity than type and id. */
export function refKey(ref: { id: unknown; type: unknown }): string {
  return `${String(ref.type)}/${String(ref.id)}`;
}
