/**
 * The three memory-api calls ctxconform makes — ingest, hydrate, assemble-context —
 * each checked for the shape the adapter needs and recorded for the report.
 * The full contract checks live in contract/.
 */
import type { Block } from '../../protocol/assembly.js';
import type { Outcome } from '../../protocol/types.js';
import type { CallRecord, JsonClient } from './http.js';
import type { AssembleContextRequest, DurableMemoryObject, IngestRequest, IngestResult, MemoryRef, Scope, WorkingContext } from './wire.js';
import { refKey } from './wire.js';
import { toEpisode, type Ingested } from './translate.js';
import { ASSEMBLE_PARTS, INGEST_PARTS, isRefusal, type Fallback, type OptionalPart } from './optional.js';

export type Step<T> = { ok: true; value: T } | { ok: false; outcome: Outcome };

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isRef(x: unknown): x is MemoryRef {
  return isObject(x) && typeof x.id === 'string' && typeof x.type === 'string';
}

export { UNSUPPORTED_CONSISTENCY } from './optional.js';

export class MemoryService {
  /**
   * The optional parts left out from some point of the run on, in the order
   * they were (optional.ts): every later call of that operation goes without.
   */
  readonly fallbacks: Fallback[] = [];

  constructor(private readonly client: JsonClient) {}

  /**
   * A call whose optional parts may break it: the parts already left out are
   * left out; on a refusal, the call is made again without one more part at a
   * time, and the first that answers leaves that part out for good.
   */
  private async tolerant<R, T>(
    op: Fallback['op'],
    parts: readonly OptionalPart<R>[],
    request: R,
    attempt: (r: R) => Promise<{ step: Step<T>; status?: number }>,
  ): Promise<Step<T>> {
    const dropped = (p: OptionalPart<R>) => this.fallbacks.some((f) => f.op === op && f.part === p.name);
    const sent = parts.filter(dropped).reduce((r, p) => p.without(r), request);
    const first = await attempt(sent);
    if (first.step.ok || !isRefusal(first.step.outcome, first.status)) return first.step;
    const refusal = first.step.outcome;
    for (const p of parts) {
      if (dropped(p) || !p.present(sent)) continue;
      const again = await attempt(p.without(sent));
      if (!again.step.ok) continue;
      const code = refusal.kind === 'error' ? String(refusal.code) : refusal.kind;
      const said = refusal.kind === 'result' ? '' : String(refusal.message);
      const cause = said.startsWith(`${op}: `) ? said.slice(op.length + 2) : said;
      this.fallbacks.push({ op, part: p.name, instead: p.instead, code, cause, allowed: p.allowed(refusal, first.status) });
      return again.step;
    }
    return first.step;
  }

  /**
   * Ingest every block into a fresh scope and wait for indexing. The
   * contract's ingest returns refs, not job ids, so there is nothing to poll:
   * the wait is `consistency: "indexed"`, and assemble-context is asked for
   * strong consistency. Each text carries the run marker (translate.ts
   * markedText). Every attempt goes into a scope of its own (`nextScope`), so
   * a retry never meets what a refused attempt may have half written.
   */
  async ingest(nextScope: () => Scope, blocks: readonly Block[], deadline: number, calls: CallRecord[], marker?: string): Promise<Step<Ingested>> {
    // The contract requires at least one episode; an empty request has nothing to write.
    if (blocks.length === 0) return { ok: true, value: { scope: nextScope(), refByBlock: new Map(), blockByRef: new Map(), episodeByRef: new Map() } };
    const episodes = blocks.map((b) => toEpisode(b, marker));
    const request: IngestRequest = { scope: nextScope(), episodes, consistency: 'indexed' };
    let scope: Scope | undefined;
    return this.tolerant('ingest', INGEST_PARTS, request, async (r) => {
      // The first attempt uses the scope it was given; each retry a new one.
      const body = scope === undefined ? r : { ...r, scope: nextScope() };
      scope = body.scope;
      const step = await this.ingestOnce(body, blocks, deadline, calls);
      return { step, status: calls.at(-1)?.status };
    });
  }

  private async ingestOnce(body: IngestRequest, blocks: readonly Block[], deadline: number, calls: CallRecord[]): Promise<Step<Ingested>> {
    const ing: Ingested = { scope: body.scope, refByBlock: new Map(), blockByRef: new Map(), episodeByRef: new Map() };
    const r = await this.client.call('ingest', { method: 'POST', path: '/v0/ingest', body }, deadline);
    calls.push(r.record);
    if (!r.ok) return r;
    const results = isObject(r.body) ? r.body.results : undefined;
    if (!Array.isArray(results) || results.length !== blocks.length) {
      return {
        ok: false,
        outcome: {
          kind: 'protocol',
          message: `ingest: HTTP ${r.status}: expected results[] with one entry per episode (${blocks.length})`,
          raw: JSON.stringify(r.body).slice(0, 2000),
        },
      };
    }
    // IngestResult carries no dedupeKey: results answer the episodes in order.
    const rejected: { block: string; code: string; message: string }[] = [];
    for (const [i, b] of blocks.entries()) {
      const res = results[i] as Partial<IngestResult> | undefined;
      if (!isObject(res) || !isRef(res.ref))
        return { ok: false, outcome: { kind: 'protocol', message: `ingest: HTTP ${r.status}: results[${i}] has no ref`, raw: JSON.stringify(res) } };
      if (res.status === 'rejected') {
        rejected.push({ block: b.block_id, code: String(res.error?.code ?? 'rejected'), message: String(res.error?.message ?? '') });
        continue;
      }
      ing.refByBlock.set(b.block_id, res.ref);
      ing.blockByRef.set(refKey(res.ref), b);
      ing.episodeByRef.set(refKey(res.ref), body.episodes[i]!);
    }
    if (rejected.length) {
      const f = rejected[0]!;
      const message = `ingest: HTTP ${r.status}, ${rejected.length} of ${blocks.length} episodes rejected (first: block ${f.block}, ${f.code}: ${f.message})`;
      return { ok: false, outcome: { kind: 'error', code: f.code, message, value: r.body } };
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
    if (!Array.isArray(objects))
      return { ok: false, outcome: { kind: 'protocol', message: 'hydrate: no objects[]', raw: JSON.stringify(r.body).slice(0, 2000) } };
    for (const o of objects as Partial<DurableMemoryObject>[]) {
      if (isObject(o) && typeof o.id === 'string' && typeof o.status === 'string') out.set(refKey({ id: o.id, type: o.type }), o.status);
    }
    return { ok: true, value: out };
  }

  /**
   * One assemble-context call; the value is the whole answer body, whose
   * `context` is a WorkingContext, and the body actually sent. A part of the
   * request that breaks the call is left out, now and in every later call
   * (optional.ts): a service that refuses `strong` with
   * `unsupported_consistency` is asked again with `eventual`.
   */
  async assemble(
    request: AssembleContextRequest,
    deadline: number,
    calls: CallRecord[],
  ): Promise<Step<{ body: unknown; context: WorkingContext; sent: AssembleContextRequest }>> {
    return this.tolerant('assemble-context', ASSEMBLE_PARTS, request, async (sent) => {
      const r = await this.client.call('assemble-context', { method: 'POST', path: '/v0/assemble-context', body: sent }, deadline);
      calls.push(r.record);
      if (!r.ok) return { step: r, status: r.record.status };
      const context = isObject(r.body) ? r.body.context : undefined;
      if (!isObject(context) || !Array.isArray(context.segments)) {
        return {
          step: {
            ok: false,
            outcome: { kind: 'protocol', message: 'assemble-context: the answer has no context.segments[]', raw: JSON.stringify(r.body).slice(0, 2000) },
          },
          status: r.status,
        };
      }
      return { step: { ok: true, value: { body: r.body, context: context as unknown as WorkingContext, sent } }, status: r.status };
    });
  }
}
