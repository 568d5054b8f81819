/**
 * The memory-api adapter (SPEC section 16): a ctxconform request becomes a
 * fresh scope on a memory service, one episode per block, and one
 * assemble-context call; the WorkingContext comes back as a kit-shaped view.
 * The service's own selection is not judged against golden cases (profile
 * `working-context-api`); contract/ checks the contract instead.
 */
import { randomBytes } from 'node:crypto';
import type { Block, Request } from '../../protocol/assembly.js';
import type { Implementation, Manifest, Outcome } from '../../protocol/types.js';
import { JsonClient, type CallRecord } from './http.js';
import { MemoryService } from './service.js';
import { scopeFor, toAssembleRequest, toKitView, type AssembleOptions, type Ingested } from './translate.js';
import type { WorkingContext } from './wire.js';

export { JsonClient, type CallRecord } from './http.js';
export { MemoryService, type Step } from './service.js';
export { fallbackNote, type Fallback } from './optional.js';
export * from './translate.js';
export * from './wire.js';

export const MEMORY_API_PROFILE = 'working-context-api';

export interface MemoryApiOptions extends AssembleOptions {
  url: string;
  apiKey?: string;
  timeoutMs: number;
  /** Names the scopes of this run (`ctxconform-<runId>-<n>`); random by default so runs never share data. */
  runId?: string;
}

/** Everything about the last request: the kit request, the scope, each call made, and the raw WorkingContext. */
export interface MemoryApiExchange {
  request: unknown;
  ingested?: Ingested;
  calls: CallRecord[];
  response?: unknown;
  context?: WorkingContext;
}

export function memoryApiManifest(version = 'unknown'): Manifest {
  return { name: 'memory-api', version, profiles: [MEMORY_API_PROFILE], capabilities: [] };
}

export function newRunId(): string {
  return randomBytes(4).toString('hex');
}

/** A kit request the adapter can translate; validity beyond that is the service's business. */
function asRequest(x: unknown): Request | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const r = x as Partial<Request>;
  if (typeof r.budget !== 'number' || !Number.isInteger(r.budget) || r.budget < 0 || !Array.isArray(r.blocks)) return undefined;
  const ok = r.blocks.every((b: Partial<Block>) => typeof b === 'object' && b !== null && typeof b.block_id === 'string' && typeof b.content === 'string');
  return ok ? (r as Request) : undefined;
}

export function openMemoryApi(o: MemoryApiOptions): Implementation & { lastExchange(): MemoryApiExchange | undefined } {
  const client = new JsonClient(o.url, o.apiKey, o.timeoutMs);
  const service = new MemoryService(client);
  const runId = o.runId ?? newRunId();
  let n = 0;
  let last: MemoryApiExchange | undefined;

  return {
    async describe(): Promise<Manifest> {
      // The contract has no version endpoint.
      return memoryApiManifest();
    },
    async assemble(request: unknown, { timeoutMs }: { timeoutMs: number }): Promise<Outcome> {
      const deadline = Date.now() + timeoutMs;
      const ex: MemoryApiExchange = { request, calls: [] };
      last = ex;
      const req = asRequest(request);
      if (!req)
        return {
          kind: 'protocol',
          message: 'the request cannot be sent to a memory service: it needs an integer budget >= 0 and blocks with string block_id and content',
        };
      const ing = await service.ingest(() => scopeFor(runId, ++n), req.blocks, deadline, ex.calls, o.marker);
      if (!ing.ok) return ing.outcome;
      ex.ingested = ing.value;
      const asm = await service.assemble(toAssembleRequest(req, ing.value, o), deadline, ex.calls);
      if (!asm.ok) return asm.outcome;
      ex.response = asm.value.body;
      ex.context = asm.value.context;
      return { kind: 'result', value: toKitView(req, asm.value.context, ing.value) };
    },
    async close(): Promise<void> {
      await client.close();
    },
    lastExchange: () => last,
  };
}
