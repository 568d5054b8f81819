/**
 * ctxconform's own WorkingContext schema (protocol/schemas/working-context.schema.json)
 * against the published ones, read from the folder CTXCONFORM_ANCHORS names (skipped
 * without it): same verdict as the OpenAPI document's AssembleContextResponse (the one
 * MAPI-2 validates against, SPEC section 16) on the published example answers and on
 * answers broken one member at a time; the context-assembly schema differs from it in
 * one member only (Scope.filters). The example answers are published data, copied in
 * test/fixtures/published/infinicon/, so the contract checks on them run everywhere.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { checkExchange, workingContextProblems } from '../../contract/index.js';
import { WORKING_CONTEXT_SCHEMA_PATH } from '../../contract/schema.js';
import { ANCHORS_DIR, PUBLISHED_DIR, anchor, sayWhenNoAnchors } from '../published.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;
type Defs = { $defs: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
sayWhenNoAnchors('memory-api/schema-agreement.test');
const anchorSchema: Defs | undefined = ANCHORS_DIR ? anchor<Defs>('infinicon/context-assembly.v0.schema.json') : undefined;
// The OpenAPI document writes refs as #/components/schemas/X; a $defs copy reads the same.
const openapiDefs: Defs | undefined = ANCHORS_DIR
  ? {
      $defs: JSON.parse(
        JSON.stringify(anchor<{ components: { schemas: object } }>('infinicon/memory-api.v0.openapi.json').components.schemas).replaceAll(
          '#/components/schemas/',
          'openapi#/$defs/',
        ),
      ),
    }
  : undefined;
const ours = JSON.parse(readFileSync(WORKING_CONTEXT_SCHEMA_PATH, 'utf8')) as {
  $defs: Record<string, { properties?: Record<string, { enum?: string[] }>; required?: string[] }>;
};

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
if (anchorSchema) ajv.addSchema(anchorSchema, 'anchor');
if (openapiDefs) ajv.addSchema({ $id: 'openapi', ...openapiDefs });
const assemblySchema = anchorSchema ? ajv.getSchema('anchor#/$defs/AssembleContextResponse')! : undefined;
const publishedSchema = openapiDefs ? ajv.getSchema('openapi#/$defs/AssembleContextResponse')! : undefined;

const EXAMPLES_DIR = join(PUBLISHED_DIR, 'infinicon');
const examples = readdirSync(EXAMPLES_DIR)
  .filter((f) => f.endsWith('.response.json'))
  .map((f) => ({ file: f, body: JSON.parse(readFileSync(join(EXAMPLES_DIR, f), 'utf8')) as { context: Record<string, unknown> } }));

type Mutation = [string, (b: { context: Record<string, unknown> }) => void];
const MUTATIONS: Mutation[] = [
  ['generatedAt without a zone', (b) => (b.context.generatedAt = '2026-07-05T10:14:00')],
  ['generatedAt as epoch seconds', (b) => (b.context.generatedAt = '1783246440')],
  ['an unknown warning code', (b) => (b.context.warnings as unknown[]).push({ code: 'budget_exceeded' })],
  ['a warning with an extra member', (b) => (b.context.warnings as unknown[]).push({ code: 'truncated', ref: 'x' })],
  ['tokenEstimate negative', (b) => (b.context.tokenEstimate = -1)],
  ['tokenEstimate fractional', (b) => (b.context.tokenEstimate = 1.5)],
  ['truncated a string', (b) => (b.context.truncated = 'false')],
  ['no warnings member', (b) => delete b.context.warnings],
  ['an extra member in the context', (b) => (b.context.omissions = [])],
  ['budget.maxTokens zero', (b) => ((b.context.budget as Record<string, unknown>).maxTokens = 0)],
  [
    'a segment without provenance',
    (b) => (b.context.segments = [{ ref: { id: 'a', type: 'atom', scope: b.context.scope }, content: 'c', score: 1, reason: 'r' }]),
  ],
  [
    'a ref of an unknown type',
    (b) => (b.context.segments = [{ ref: { id: 'a', type: 'document', scope: b.context.scope }, content: 'c', score: 1, reason: 'r', provenance: {} }]),
  ],
  ['a scope without namespaceId', (b) => (b.context.scope = { tenantId: 't' })],
];

it('there are published example answers to compare on', () => {
  expect(examples.map((e) => e.file).sort()).toEqual([
    'assemble-context.response.json',
    'disputed-memory.response.json',
    'empty-context.response.json',
    'truncated-context.response.json',
  ]);
});

describe.skipIf(!openapiDefs)('working-context.schema.json agrees with the published OpenAPI AssembleContextResponse', () => {
  const published = (body: unknown): boolean => publishedSchema!(body);
  const assembly = (body: unknown): boolean => assemblySchema!(body);
  for (const { file, body } of examples) {
    it(`accepts ${file}, as both published schemas do`, () => {
      expect(published(body)).toBe(true);
      expect(assembly(body)).toBe(true);
      expect(workingContextProblems(body)).toEqual([]);
    });
    for (const [what, mutate] of MUTATIONS) {
      it(`${file} with ${what}: all three reject`, () => {
        const broken = structuredClone(body);
        mutate(broken);
        expect(published(broken)).toBe(false);
        expect(assembly(broken)).toBe(false);
        expect(workingContextProblems(broken)).not.toEqual([]);
      });
    }
    it(`${file} with filters in its scope: the OpenAPI document and ctxconform accept it, the context-assembly schema does not`, () => {
      const withFilters = structuredClone(body);
      (withFilters.context.scope as Record<string, unknown>).filters = { region: 'eu' };
      expect(published(withFilters)).toBe(true);
      expect(workingContextProblems(withFilters)).toEqual([]);
      expect(assembly(withFilters)).toBe(false);
      (withFilters.context.scope as Record<string, unknown>).filters = 'eu';
      expect(published(withFilters)).toBe(false);
      expect(workingContextProblems(withFilters)).not.toEqual([]);
    });
  }

  it('has the same warning codes, required members and member names as the OpenAPI document; the context-assembly schema differs only in Scope.filters', () => {
    const theirs = openapiDefs!;
    expect(ours.$defs.ContextWarning!.properties!.code!.enum).toEqual((theirs.$defs.ContextWarning!.properties!.code as { enum: string[] }).enum);
    for (const def of ['WorkingContext', 'ContextSegment', 'ContextBudget', 'MemoryRef', 'Scope', 'ContextWarning', 'AssembleContextResponse']) {
      expect(ours.$defs[def]!.required, def).toEqual(theirs.$defs[def]!.required);
      expect(Object.keys(ours.$defs[def]!.properties!).sort(), def).toEqual(Object.keys(theirs.$defs[def]!.properties!).sort());
      const assemblyMembers = Object.keys(anchorSchema!.$defs[def]!.properties!).sort();
      expect(assemblyMembers, def).toEqual(
        Object.keys(theirs.$defs[def]!.properties!)
          .filter((k) => !(def === 'Scope' && k === 'filters'))
          .sort(),
      );
    }
  });
});

describe('the contract checks on the published examples', () => {
  /** An exchange where the example's segments are exactly what was ingested. */
  function exchangeOf(body: { context: Record<string, unknown> }) {
    const ctx = body.context as {
      budget: { maxTokens: number; maxSegments?: number; reservedTokens?: number };
      segments: { ref: { id: string; type: string }; content: string }[];
      scope: never;
      task: string;
    };
    const ingested = new Map(ctx.segments.map((s) => [`${s.ref.type}/${s.ref.id}`, { blockId: s.ref.id, text: s.content }]));
    return { ingested, statuses: new Map<string, string>(), sent: { scope: ctx.scope, task: ctx.task, budget: ctx.budget }, body };
  }

  it('the plain, disputed and empty examples meet MAPI-2..10', () => {
    for (const f of ['assemble-context.response.json', 'empty-context.response.json', 'disputed-memory.response.json']) {
      const { findings } = checkExchange(exchangeOf(examples.find((e) => e.file === f)!.body));
      expect(findings, f).toEqual([]);
    }
  });

  it('a published derived segment (consolidation, atom) is legitimate when only the episode its provenance names was ingested', () => {
    // The contract's own examples answer with memories the service derived: MAPI-10 must accept them (SPEC section 16).
    for (const f of ['assemble-context.response.json', 'disputed-memory.response.json']) {
      const body = examples.find((e) => e.file === f)!.body;
      const ctx = body.context as {
        scope: never;
        task: string;
        budget: { maxTokens: number };
        segments: { provenance: { sourceRefs: { id: string; type: string }[] } }[];
      };
      const sources = ctx.segments.flatMap((s) => s.provenance.sourceRefs);
      const ingested = new Map(sources.map((r) => [`${r.type}/${r.id}`, { blockId: r.id, text: 'the episode the service derived from' }]));
      const ex = { ingested, statuses: new Map<string, string>(), sent: { scope: ctx.scope, task: ctx.task, budget: ctx.budget }, body };
      const out = checkExchange(ex);
      expect(out.findings, f).toEqual([]);
      // The episode is represented by the derived segment: nothing was left out, so truncated false is right.
      expect(out.facets.has('MAPI-4:complete') || out.facets.has('MAPI-4:left-out'), f).toBe(false);
      // A derived segment naming an episode that was never ingested is no memory of this scope.
      expect(
        checkExchange({ ...ex, ingested: new Map() }).findings.map((x) => x.clause),
        f,
      ).toEqual(['MAPI-10']);
    }
  });

  it('the truncated example breaks MAPI-3 as SPEC section 16 words it: 155 tokens > 160 - 60 reserved', () => {
    // The published example and SPEC section 16 disagree here: with 60 of 160 tokens reserved, a 155-token context
    // leaves no room for the reserve. ctxconform follows the spec (the reserve is not for the
    // context), so this published example would fail MAPI-3; SPEC section 16 records it.
    const body = examples.find((e) => e.file === 'truncated-context.response.json')!.body;
    const ex = exchangeOf(body);
    // It says truncated and required_ref_omitted, so a required memory was left out: give it one,
    // ingested and sent in mustIncludeRefs.
    ex.ingested.set('episode/left-out', { blockId: 'left-out', text: 'a memory that did not fit' });
    const sent = { ...ex.sent, constraints: { mustIncludeRefs: [{ id: 'left-out', type: 'episode' as const, scope: ex.sent.scope }] } };
    const { findings } = checkExchange({ ...ex, sent });
    expect(findings.map((f) => f.clause)).toEqual(['MAPI-3']);
    expect(findings[0]!.message).toBe('tokenEstimate 155 exceeds maxTokens 160 - reservedTokens 60 = 100');
  });
});
