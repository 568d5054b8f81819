/** The "exactly when" halves of SPEC section 16 that no broken fake exercises: warnings given without cause. */
import { describe, expect, it } from 'vitest';
import { checkExchange, type Exchange } from '../../conformance/contract/index.js';

const scope = { tenantId: 't', namespaceId: 'n' };
const ref = (id: string) => ({ id, type: 'episode' as const, scope });
const seg = (id: string, content: string) => ({ ref: ref(id), content, score: 1, reason: 'r', provenance: {} });

function exchange(context: Record<string, unknown>, sent: Partial<Exchange['sent']> = {}, statuses: [string, string][] = []): Exchange {
  return {
    ingested: new Map([
      ['episode/a', { blockId: 'a', text: 'alpha' }],
      ['episode/b', { blockId: 'b', text: 'beta' }],
    ]),
    statuses: new Map(statuses),
    sent: { scope, task: 'x', budget: { maxTokens: 10, reservedTokens: 2 }, ...sent },
    body: { context: { scope, task: 'x', budget: { maxTokens: 10, reservedTokens: 2 }, segments: [], tokenEstimate: 0, truncated: false, warnings: [], generatedAt: '2026-01-01T00:00:00Z', ...context } },
  };
}

const clauses = (ex: Exchange) => checkExchange(ex).findings.map((f) => f.clause);

describe('contract checks: warnings without cause', () => {
  it('a complete answer breaks nothing', () => {
    expect(clauses(exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], tokenEstimate: 2 }))).toEqual([]);
  });

  it('truncated warning with the flag false breaks MAPI-5 only', () => {
    expect(clauses(exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], warnings: [{ code: 'truncated' }] }))).toEqual(['MAPI-5']);
  });

  it('empty_context with segments breaks MAPI-6', () => {
    expect(clauses(exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], warnings: [{ code: 'empty_context' }] }))).toEqual(['MAPI-6']);
  });

  it('required_ref_omitted when every required ref is present breaks MAPI-7', () => {
    const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], warnings: [{ code: 'required_ref_omitted' }] }, { constraints: { mustIncludeRefs: [ref('a')] } });
    expect(clauses(ex)).toEqual(['MAPI-7']);
  });

  it('required_ref_omitted when no required ref was sent breaks MAPI-7', () => {
    const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], warnings: [{ code: 'required_ref_omitted' }] });
    expect(checkExchange(ex).findings).toEqual([{ clause: 'MAPI-7', message: 'a required_ref_omitted warning is given but no mustIncludeRefs were sent' }]);
  });

  it('a segment the scope never held breaks MAPI-10', () => {
    const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta'), seg('zz', 'invented')] });
    expect(checkExchange(ex).findings).toEqual([{ clause: 'MAPI-10', message: 'segment 2 has ref episode/zz, which is not a memory ingested into the scope' }]);
  });

  it('a filtered-out memory is not a candidate: leaving it out is not truncation', () => {
    const ex = exchange({ segments: [seg('a', 'alpha')] }, { filters: { includeSuperseded: false } }, [['episode/b', 'superseded']]);
    expect(clauses(ex)).toEqual([]);
    const included = exchange({ segments: [seg('a', 'alpha')] }, { filters: { includeSuperseded: true } }, [['episode/b', 'superseded']]);
    expect(clauses(included)).toEqual(['MAPI-4']);
  });

  it('a superseded memory shown without its warning breaks MAPI-11', () => {
    const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }, { filters: { includeSuperseded: true } }, [['episode/b', 'superseded']]);
    expect(checkExchange(ex).findings).toEqual([{ clause: 'MAPI-11', message: 'superseded memories appear without a superseded_memory_included warning: episode/b (block b)' }]);
  });

  it('segments the first time and none the second breaks MAPI-12, whichever answer is empty', () => {
    const full = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }).body;
    const empty = exchange({ warnings: [{ code: 'empty_context' }], truncated: true }).body;
    const firstFull = { ...exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }), again: empty };
    const firstEmpty = { ...exchange({ warnings: [{ code: 'empty_context' }, { code: 'truncated' }], truncated: true }), again: full };
    expect(clauses(firstFull)).toEqual(['MAPI-12']);
    expect(clauses(firstEmpty)).toEqual(['MAPI-12']);
    expect(checkExchange({ ...firstEmpty, again: empty }).exercised.has('MAPI-12')).toBe(false);
  });
});

describe('the clauses are the ones SPEC.md section 16 defines', () => {
  it('same ids, same order, all in section 16', async () => {
    const { specRequirements } = await import('../../conformance/spec-ids.js');
    const { CLAUSES } = await import('../../conformance/contract/index.js');
    const mapi = specRequirements().filter((r) => r.id.startsWith('MAPI-'));
    expect(mapi.map((r) => r.id)).toEqual(CLAUSES.map((c) => c.id));
    expect(new Set(mapi.map((r) => r.section))).toEqual(new Set(['16. The memory-api contract']));
  });
});
