/**
 * The three memory-api calls ctxconform makes — ingest, hydrate, assemble-context —
 * each checked for the shape the adapter needs and recorded for the report.
 * The full contract checks live in conformance/contract/.
 */
import type { Block } from '../../protocol/types.js';
import type { Outcome } from '../../protocol/types.js';
import type { CallRecord, JsonClient } from './http.js';
import type { AssembleContextRequest, DurableMemoryObject, IngestRequest, IngestResult, MemoryRef, Scope, WorkingContext } from './wire.js';
import { refKey } from './wire.js';
import { toEpisode, type Ingested } from './translate.js';

export type Step<T> = { ok: true; value: T } | { ok: false; outcome: Outcome };

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isRef(x: unknown): x is MemoryRef {
  return isObject(x) && typeof x.id === 'string' && typeof x.type === 'string';
}

/** The error code a service gives when it cannot read with the consistency asked (SPEC section 16). */
export const UNSUPPORTED_CONSISTENCY = 'unsupported_consistency';

export class MemoryService {
  /**
   * Set once the service refused `strong` with `unsupported_consistency`:
   * from then on every assemble-context asks for `eventual`.
   */
  refusedStrong: { message: string } | undefined;

  constructor(private readonly client: JsonClient) {}

  /**
   * Ingest every block into `scope` and wait for indexing. The contract's
   * ingest returns refs, not job ids, so there is nothing to poll: the wait is
   * `consistency: "indexed"`, and assemble-context is asked for strong consistency.
   * Each text carries the run marker (translate.ts markedText).
   */
  async ingest(scope: Scope, blocks: readonly Block[], deadline: number, calls: CallRecord[], marker?: string): Promise<Step<Ingested>> {
    const ing: Ingested = { scope, refByBlock: new Map(), blockByRef: new Map(), episodeByRef: new Map() };
    // The contract requires at least one episode; an empty request has nothing to write.
    if (blocks.length === 0) return { ok: true, value: ing };
    const episodes = blocks.map((b) => toEpisode(b, marker));
    const body: IngestRequest = { scope, episodes, consistency: 'indexed' };
    const r = await this.client.call('ingest', { method: 'POST', path: '/v0/ingest', body }, deadline);
    calls.push(r.record);
    if (!r.ok) return r;
    const results = isObject(r.body) ? r.body.results : undefined;
    if (!Array.isArray(results) || results.length !== blocks.length) {
      return { ok: false, outcome: { kind: 'protocol', message: `ingest: expected results[] with one entry per episode (${blocks.length})`, raw: JSON.stringify(r.body).slice(0, 2000) } };
    }
    // IngestResult carries no dedupeKey: results answer the episodes in order.
    for (const [i, b] of blocks.entries()) {
      const res = results[i] as Partial<IngestResult> | undefined;
      if (!isObject(res) || !isRef(res.ref)) return { ok: false, outcome: { kind: 'protocol', message: `ingest: results[${i}] has no ref`, raw: JSON.stringify(res) } };
      if (res.status === 'rejected') {
        const code = res.error?.code ?? 'rejected';
        return { ok: false, outcome: { kind: 'error', code, message: `ingest rejected block ${b.block_id}: ${res.error?.message ?? ''}`, value: r.body } };
      }
      ing.refByBlock.set(b.block_id, res.ref);
      ing.blockByRef.set(refKey(res.ref), b);
      ing.episodeByRef.set(refKey(res.ref), episodes[i]!);
    }
    return { ok: true, value: ing };
  }

  /** The service's own status of each ingested memory (ingest cannot set one; the service decides). */
  async statuses(ing: Ingested, deadline: number, calls: CallRecord[]): Promise<Step<Map<string, string>>> {
    const out = new Map<string, string>();
    const refs = [...ing.refByBlock.values()];
    if (refs.length === 0) return { ok: true, value: out };
    const r = await this.client.call('hydrate', { method: 'POST', path: '/v0/hydrate', body: { scope: ing.scope, refs } }, deadline);
    calls.push(r.record);
    if (!r.ok) return r;
    const objects = isObject(r.body) ? r.body.objects : undefined;
    if (!Array.isArray(objects)) return { ok: false, outcome: { kind: 'protocol', message: 'hydrate: no objects[]', raw: JSON.stringify(r.body).slice(0, 2000) } };
    for (const o of objects as Partial<DurableMemoryObject>[]) {
      if (isObject(o) && typeof o.id === 'string' && typeof o.status === 'string') out.set(refKey({ id: o.id, type: o.type }), o.status);
    }
    return { ok: true, value: out };
  }

  /**
   * One assemble-context call; the value is the whole answer body, whose
   * `context` is a WorkingContext, and the body actually sent. A service that
   * refuses `strong` with `unsupported_consistency` is asked again with
   * `eventual`, and so is every later call: a read it cannot offer is not a
   * broken contract.
   */
  async assemble(request: AssembleContextRequest, deadline: number, calls: CallRecord[]): Promise<Step<{ body: unknown; context: WorkingContext; sent: AssembleContextRequest }>> {
    let sent = this.refusedStrong && request.consistency === 'strong' ? { ...request, consistency: 'eventual' as const } : request;
    let r = await this.client.call('assemble-context', { method: 'POST', path: '/v0/assemble-context', body: sent }, deadline);
    calls.push(r.record);
    if (!r.ok && sent.consistency === 'strong' && r.outcome.kind === 'error' && r.outcome.code === UNSUPPORTED_CONSISTENCY) {
      this.refusedStrong = { message: String(r.outcome.message) };
      sent = { ...request, consistency: 'eventual' };
      r = await this.client.call('assemble-context', { method: 'POST', path: '/v0/assemble-context', body: sent }, deadline);
      calls.push(r.record);
    }
    if (!r.ok) return r;
    const context = isObject(r.body) ? r.body.context : undefined;
    if (!isObject(context) || !Array.isArray(context.segments)) {
      return { ok: false, outcome: { kind: 'protocol', message: 'assemble-context: the answer has no context.segments[]', raw: JSON.stringify(r.body).slice(0, 2000) } };
    }
    return { ok: true, value: { body: r.body, context: context as unknown as WorkingContext, sent } };
  }
}
