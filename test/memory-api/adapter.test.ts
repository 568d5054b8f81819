import { afterEach, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openMemoryApi, type MemoryApiExchange } from '../../adapters/memory-api/index.js';
import type { Request } from '../../protocol/assembly.js';
import { startMemoryService, type FakeService, type Mode, type Variant } from '../fixtures/memory-service/server.js';
import { ANCHORS_DIR, anchor, sayWhenNoAnchors } from '../published.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;

sayWhenNoAnchors('memory-api/adapter.test');

/** The request schemas the contract publishes, read from the folder CTXCONFORM_ANCHORS names. */
function contractValidators() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const openapi = anchor<{ components: { schemas: Record<string, unknown> } }>('infinicon/memory-api.v0.openapi.json');
  // The OpenAPI document writes refs as #/components/schemas/X; point them at a $defs copy.
  const defs = JSON.parse(JSON.stringify(openapi.components.schemas).replaceAll('#/components/schemas/', 'openapi#/$defs/')) as object;
  ajv.addSchema({ $id: 'openapi', $defs: defs });
  ajv.addSchema(anchor<object>('infinicon/context-assembly.v0.schema.json'), 'context-assembly');
  return {
    ingest: ajv.getSchema('openapi#/$defs/IngestRequest')!,
    hydrate: ajv.getSchema('openapi#/$defs/HydrateRequest')!,
    assembleOpenApi: ajv.getSchema('openapi#/$defs/AssembleContextRequest')!,
    assemble: ajv.getSchema('context-assembly#/$defs/AssembleContextRequest')!,
  };
}

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function open(
  variant: Variant = 'faithful',
  o: { apiKey?: string; serviceKey?: string; reservedTokens?: number; timeoutMs?: number; mode?: Mode; task?: string; marker?: string } = {},
) {
  service = await startMemoryService({ variant, ...(o.mode ? { mode: o.mode } : {}), ...(o.serviceKey !== undefined ? { apiKey: o.serviceKey } : {}) });
  const chosen = { ...(o.task !== undefined ? { task: o.task } : {}), ...(o.marker !== undefined ? { marker: o.marker } : {}) };
  return openMemoryApi({
    url: service.url,
    timeoutMs: o.timeoutMs ?? 2000,
    runId: 'test',
    ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}),
    ...(o.reservedTokens !== undefined ? { reservedTokens: o.reservedTokens } : {}),
    ...chosen,
  });
}

const REQUEST: Request = {
  now: 1_700_000_100,
  budget: 30,
  blocks: [
    { block_id: 'b-keep', source: 'memory', content: 'x'.repeat(40), priority: 3, created_at: 1_700_000_000, ttl_seconds: 0, confidence: 0.5 },
    { block_id: 'b-req', source: 'episodes', content: 'y'.repeat(48), priority: 1, status: 'disputed', pinned: false },
    { block_id: 'b-out', source: 'knowledge', content: 'z'.repeat(80), priority: 2 },
  ],
  constraints: { must_include: ['b-req', 'b-ghost'], exclude: ['b-out', 'b-nobody'], max_segments: 2, include_disputed: true, prefer_recency: true },
};

function call(ex: MemoryApiExchange | undefined, op: string) {
  return ex?.calls.find((c) => c.op === op);
}

describe('memory-api adapter: what it sends', () => {
  it('ingests every block as an episode into a fresh scope, with the kit fields in metadata', async () => {
    const impl = await open();
    expect((await impl.assemble(REQUEST, { timeoutMs: 2000 })).kind).toBe('result');
    const ingest = call(impl.lastExchange(), 'ingest')!.request as Record<string, unknown>;
    expect(ingest).toEqual({
      scope: { tenantId: 'ctxconform', namespaceId: 'ctxconform-test-1' },
      consistency: 'indexed',
      episodes: [
        {
          contentType: 'text/plain',
          content: { text: `${'x'.repeat(40)} ctx7q2mark` },
          dedupeKey: 'b-keep',
          createdBy: { id: 'ctxconform', kind: 'tool' },
          metadata: { block_id: 'b-keep', source: 'memory', priority: 3, created_at: 1_700_000_000, ttl_seconds: 0, confidence: 0.5 },
        },
        {
          contentType: 'text/plain',
          content: { text: `${'y'.repeat(48)} ctx7q2mark` },
          dedupeKey: 'b-req',
          createdBy: { id: 'ctxconform', kind: 'tool' },
          metadata: { block_id: 'b-req', source: 'episodes', priority: 1, status: 'disputed', pinned: false },
        },
        {
          contentType: 'text/plain',
          content: { text: `${'z'.repeat(80)} ctx7q2mark` },
          dedupeKey: 'b-out',
          createdBy: { id: 'ctxconform', kind: 'tool' },
          metadata: { block_id: 'b-out', source: 'knowledge', priority: 2 },
        },
      ],
    });
    await impl.assemble(REQUEST, { timeoutMs: 2000 });
    expect((call(impl.lastExchange(), 'ingest')!.request as { scope: unknown }).scope).toEqual({ tenantId: 'ctxconform', namespaceId: 'ctxconform-test-2' });
    await impl.close();
  });

  it('the marker rides on every text and is the task; --marker and --task change them, an empty marker leaves the texts alone', async () => {
    const sent = async (o: { task?: string; marker?: string }) => {
      const impl = await open('faithful', o);
      await impl.assemble({ ...REQUEST, blocks: [...REQUEST.blocks, { block_id: 'b-empty', source: 'memory', content: '' }] }, { timeoutMs: 2000 });
      const ex = impl.lastExchange()!;
      const texts = (call(ex, 'ingest')!.request as { episodes: { content: { text: string } }[] }).episodes.map((e) => e.content.text);
      const task = (call(ex, 'assemble-context')!.request as { task: string }).task;
      await impl.close();
      await service!.close();
      service = undefined;
      return { texts, task };
    };
    expect(await sent({})).toEqual({
      texts: [`${'x'.repeat(40)} ctx7q2mark`, `${'y'.repeat(48)} ctx7q2mark`, `${'z'.repeat(80)} ctx7q2mark`, 'ctx7q2mark'],
      task: 'ctx7q2mark',
    });
    expect(await sent({ marker: 'm4rk' })).toMatchObject({ texts: [`${'x'.repeat(40)} m4rk`, expect.any(String), expect.any(String), 'm4rk'], task: 'm4rk' });
    expect(await sent({ task: 'billing', marker: 'm4rk' })).toMatchObject({ task: 'billing' });
    expect(await sent({ marker: '' })).toEqual({
      texts: ['x'.repeat(40), 'y'.repeat(48), 'z'.repeat(80), ''],
      task: 'ctxconform conformance: assemble the recalled memories of this scope',
    });
  });

  it('maps budget, segment cap, refs, filters and preferences into assemble-context', async () => {
    const impl = await open('faithful', { reservedTokens: 12 });
    await impl.assemble(REQUEST, { timeoutMs: 2000 });
    const ex = impl.lastExchange()!;
    const refs = (call(ex, 'ingest')!.response as { results: { ref: unknown }[] }).results.map((r) => r.ref);
    const scope = { tenantId: 'ctxconform', namespaceId: 'ctxconform-test-1' };
    expect(call(ex, 'assemble-context')!.request).toEqual({
      scope,
      task: 'ctx7q2mark',
      budget: { maxTokens: 42, reservedTokens: 12, maxSegments: 2 },
      filters: { includeDisputed: true, includeSuperseded: false },
      constraints: {
        mustIncludeRefs: [refs[1], { id: 'ctxconform-absent:b-ghost', type: 'episode', scope }],
        excludedRefs: [refs[2]],
        maxSegments: 2,
        preferRecency: true,
      },
      consistency: 'strong',
    });
    await impl.close();
  });

  it.skipIf(!ANCHORS_DIR)('sends what the published contract accepts (read from CTXCONFORM_ANCHORS)', async () => {
    const v = contractValidators();
    const impl = await open();
    await impl.assemble(REQUEST, { timeoutMs: 2000 });
    const ex = impl.lastExchange()!;
    expect(v.ingest(call(ex, 'ingest')!.request), JSON.stringify(v.ingest.errors)).toBe(true);
    expect(v.assemble(call(ex, 'assemble-context')!.request), JSON.stringify(v.assemble.errors)).toBe(true);
    // The one place the two documents differ: the OpenAPI ContextConstraints has no maxSegments.
    expect(v.assembleOpenApi(call(ex, 'assemble-context')!.request)).toBe(false);
    expect(v.assembleOpenApi.errors!.map((e) => (e.params as { additionalProperty?: string }).additionalProperty)).toEqual(['maxSegments']);
    await impl.close();
  });

  it('sends the api key as a bearer token, and a refusal is an error outcome', async () => {
    let impl = await open('faithful', { apiKey: 's3cret', serviceKey: 's3cret' });
    expect((await impl.assemble(REQUEST, { timeoutMs: 2000 })).kind).toBe('result');
    expect(service!.seen.every((s) => s.authorization === 'Bearer s3cret')).toBe(true);
    await impl.close();
    await service!.close();
    impl = await open('faithful', { serviceKey: 's3cret' });
    expect(await impl.assemble(REQUEST, { timeoutMs: 2000 })).toMatchObject({ kind: 'error', code: 'unauthorized' });
    expect(service!.seen[0]!.authorization).toBeUndefined();
    await impl.close();
  });

  it('a service that refuses strong consistency is asked again with eventual, and so is every later request', async () => {
    service = await startMemoryService({ refuseStrong: true });
    const impl = openMemoryApi({ url: service.url, timeoutMs: 2000, runId: 'test' });
    expect((await impl.assemble(REQUEST, { timeoutMs: 2000 })).kind).toBe('result');
    expect(
      impl
        .lastExchange()!
        .calls.filter((c) => c.op === 'assemble-context')
        .map((c) => [(c.request as { consistency: string }).consistency, c.status]),
    ).toEqual([
      ['strong', 400],
      ['eventual', 200],
    ]);
    expect((await impl.assemble(REQUEST, { timeoutMs: 2000 })).kind).toBe('result');
    expect(
      impl
        .lastExchange()!
        .calls.filter((c) => c.op === 'assemble-context')
        .map((c) => (c.request as { consistency: string }).consistency),
    ).toEqual(['eventual']);
    await impl.close();
  });

  it('a zero budget is one token, all of it reserved; no blocks means no ingest call', async () => {
    const impl = await open();
    const out = await impl.assemble({ now: 0, budget: 0, blocks: [] }, { timeoutMs: 2000 });
    expect(out.kind).toBe('result');
    const ex = impl.lastExchange()!;
    expect(ex.calls.map((c) => c.op)).toEqual(['assemble-context']);
    expect((ex.calls[0]!.request as { budget: unknown }).budget).toEqual({ maxTokens: 1, reservedTokens: 1 });
    await impl.close();
  });
});

describe('memory-api adapter: what it gives back', () => {
  it('maps segments to blocks by ref and keeps the raw WorkingContext', async () => {
    const impl = await open('faithful', { mode: 'plain' });
    const out = await impl.assemble(REQUEST, { timeoutMs: 2000 });
    // Budget 30, cap 2, b-out excluded: the fake takes required b-req (59 characters with the marker: 14 tokens) then b-keep (12).
    expect(out).toMatchObject({
      kind: 'result',
      value: {
        included: ['b-req', 'b-keep'],
        estimated_tokens: 26,
        total_budget: 30,
        truncated: false,
        context: `${'y'.repeat(48)} ctx7q2mark\n\n${'x'.repeat(40)} ctx7q2mark`,
        segments: [
          { block_id: 'b-req', source: 'episodes', reason: 'required' },
          { block_id: 'b-keep', source: 'memory' },
        ],
      },
    });
    const codes = (out as { value: { warnings: { code: string }[] } }).value.warnings.map((w) => w.code);
    expect(codes).toEqual(['required_ref_omitted', 'disputed_memory_included']);
    expect(impl.lastExchange()!.context).toMatchObject({ tokenEstimate: 26, generatedAt: expect.any(String) });
    expect(await impl.describe()).toEqual({ name: 'memory-api', version: 'unknown', profiles: ['working-context-api'], capabilities: [] });
    await impl.close();
  });
});

describe('memory-api adapter: every transport failure is an Outcome', () => {
  it('no answer in time is a timeout', async () => {
    const impl = await open('hang');
    expect(await impl.assemble(REQUEST, { timeoutMs: 150 })).toMatchObject({ kind: 'timeout', message: expect.stringMatching(/assemble-context/) });
    await impl.close();
  });

  it('a body that is not JSON is a protocol failure', async () => {
    const impl = await open('garbage');
    expect(await impl.assemble(REQUEST, { timeoutMs: 2000 })).toMatchObject({ kind: 'protocol', raw: '<html>bad gateway</html>' });
    await impl.close();
  });

  it('a dropped connection or a closed port is a crash', async () => {
    const impl = await open('drop');
    expect(await impl.assemble(REQUEST, { timeoutMs: 2000 })).toMatchObject({ kind: 'crash' });
    await impl.close();
    const url = service!.url;
    await service!.close();
    service = undefined;
    const gone = openMemoryApi({ url, timeoutMs: 2000 });
    expect(await gone.assemble(REQUEST, { timeoutMs: 2000 })).toMatchObject({ kind: 'crash', message: expect.stringMatching(/ingest: connection failed/) });
    await gone.close();
  });

  it('a request it cannot translate is a protocol outcome, not a throw', async () => {
    const impl = await open();
    expect(await impl.assemble({ budget: 1.5, blocks: [] }, { timeoutMs: 2000 })).toMatchObject({ kind: 'protocol' });
    expect(await impl.assemble(null, { timeoutMs: 2000 })).toMatchObject({ kind: 'protocol' });
    await impl.close();
  });
});
