/**
 * The checks of one exchange (SPEC section 16) on answers written by hand: the
 * "exactly when" halves no broken fake exercises, derived memories, content
 * objects, and what puts each clause to the test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkExchange, type Exchange } from '../../contract/index.js';

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
    body: {
      context: {
        scope,
        task: 'x',
        budget: { maxTokens: 10, reservedTokens: 2 },
        segments: [],
        tokenEstimate: 0,
        truncated: false,
        warnings: [],
        generatedAt: '2026-01-01T00:00:00Z',
        ...context,
      },
    },
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
    const ex = exchange(
      { segments: [seg('a', 'alpha'), seg('b', 'beta')], warnings: [{ code: 'required_ref_omitted' }] },
      { constraints: { mustIncludeRefs: [ref('a')] } },
    );
    expect(clauses(ex)).toEqual(['MAPI-7']);
  });

  it('required_ref_omitted when no required ref was sent breaks MAPI-7', () => {
    const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], warnings: [{ code: 'required_ref_omitted' }] });
    expect(checkExchange(ex).findings).toEqual([{ clause: 'MAPI-7', message: 'a required_ref_omitted warning is given but no mustIncludeRefs were sent' }]);
  });

  it('a segment the scope never held breaks MAPI-10', () => {
    const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta'), seg('zz', 'invented')] });
    expect(checkExchange(ex).findings).toEqual([
      {
        clause: 'MAPI-10',
        message: 'segment 2 has ref episode/zz, which is not a memory ingested into the scope, and its provenance names no sourceRefs it was derived from',
      },
    ]);
  });

  it('a filtered-out memory is not a candidate: leaving it out is not truncation', () => {
    const ex = exchange({ segments: [seg('a', 'alpha')] }, { filters: { includeSuperseded: false } }, [['episode/b', 'superseded']]);
    expect(clauses(ex)).toEqual([]);
    const included = exchange({ segments: [seg('a', 'alpha')] }, { filters: { includeSuperseded: true } }, [['episode/b', 'superseded']]);
    expect(clauses(included)).toEqual(['MAPI-4']);
  });

  it('a superseded memory shown without its warning breaks MAPI-11', () => {
    const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }, { filters: { includeSuperseded: true } }, [['episode/b', 'superseded']]);
    expect(checkExchange(ex).findings).toEqual([
      { clause: 'MAPI-11', message: 'superseded memories appear without a superseded_memory_included warning: episode/b (block b)' },
    ]);
  });

  it('segments the first time and none the second breaks MAPI-12, whichever answer is empty', () => {
    const full = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }).body;
    const empty = exchange({ warnings: [{ code: 'empty_context' }], truncated: true }).body;
    const firstFull = { ...exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }), again: empty };
    const firstEmpty = { ...exchange({ warnings: [{ code: 'empty_context' }, { code: 'truncated' }], truncated: true }), again: full };
    expect(clauses(firstFull)).toEqual(['MAPI-12']);
    expect(clauses(firstEmpty)).toEqual(['MAPI-12']);
    expect(checkExchange({ ...firstEmpty, again: empty }).tested.has('MAPI-12')).toBe(false);
  });
});

const atom = (id: string) => ({ id, type: 'atom' as const, scope });
/** A derived segment: an atom whose provenance names episodes by id, or any refs given whole. */
const derived = (id: string, sources: (string | { id: string; type: string })[], content = 'keyword') => ({
  ref: atom(id),
  content,
  score: 1,
  reason: 'derived',
  provenance: { sourceRefs: sources.map((s) => (typeof s === 'string' ? ref(s) : s)) },
});
const answer = (segments: unknown[], more: Record<string, unknown> = {}) => exchange({ segments, ...more }).body;

describe('contract checks: derived memories and content (MAPI-10)', () => {
  it('a memory derived from ingested memories is legitimate, and represents them', () => {
    const ex = exchange({ segments: [derived('k1', ['a', 'b'])] });
    expect(checkExchange(ex).findings).toEqual([]);
    // Both candidates are represented by the one derived segment: nothing was left out.
    expect(checkExchange(ex).facets.has('MAPI-4:complete')).toBe(false);
    expect(checkExchange(ex).facets.has('MAPI-4:left-out')).toBe(false);
  });

  it('a derived memory may name another derived segment of the same answer', () => {
    const ex = exchange({ segments: [derived('c1', [atom('k1')]), derived('k1', ['a']), seg('b', 'beta')] });
    expect(clauses(ex)).toEqual([]);
  });

  it('a derived memory naming a memory not ingested into the scope, or nothing, breaks MAPI-10 once per exchange', () => {
    const foreign = exchange({ segments: [derived('k1', ['a', 'elsewhere']), seg('b', 'beta')] });
    expect(checkExchange(foreign).findings).toEqual([
      {
        clause: 'MAPI-10',
        message:
          'segment 0 has ref atom/k1, which is not a memory ingested into the scope, and its provenance.sourceRefs names episode/elsewhere, not ingested into the scope',
      },
    ]);
    const unsourced = exchange({
      segments: [{ ...seg('k9', 'x'), provenance: {} }, { ...seg('k8', 'y'), provenance: { sourceRefs: [] } }, seg('a', 'alpha'), seg('b', 'beta')],
    });
    expect(checkExchange(unsourced).findings).toEqual([
      {
        clause: 'MAPI-10',
        message:
          'segment 0 has ref episode/k9, which is not a memory ingested into the scope, and its provenance names no sourceRefs it was derived from (and 1 more segment(s))',
      },
    ]);
    // Two derived segments naming only each other trace back to nothing.
    expect(clauses(exchange({ segments: [derived('k1', [atom('k2')]), derived('k2', [atom('k1')]), seg('a', 'alpha'), seg('b', 'beta')] }))).toEqual([
      'MAPI-10',
    ]);
  });

  it('an episode may come back as its ingested content object in JSON text, never cut', () => {
    const ex = exchange({ segments: [seg('a', '{ "text": "alpha" }'), seg('b', 'beta')] });
    const withObjects = { ...ex, ingested: new Map([...ex.ingested].map(([k, m]) => [k, { ...m, content: { text: m.text } }])) };
    expect(clauses(withObjects)).toEqual([]);
    // Without the object to compare with, JSON text is not the ingested text.
    expect(clauses(ex)).toEqual(['MAPI-10']);
    const cut = { ...withObjects, body: answer([seg('a', 'alph'), seg('b', '{"text":"bet"}')]) };
    expect(checkExchange(cut).findings.map((f) => f.message)).toEqual([
      'segment 0 (block a) has content "alph", not the ingested "alpha" (and 1 more segment(s))',
    ]);
  });
});

describe('contract checks: what the service retrieves decides what is in play', () => {
  const retrieves = (segments: unknown[], truncated = false) => ({ context: { segments, truncated } });

  it('a memory the service does not retrieve for the task is not a candidate: leaving it out is no truncation', () => {
    const ex = { ...exchange({ segments: [seg('a', 'alpha')] }), unconstrained: retrieves([seg('a', 'alpha')]) };
    expect(clauses(ex)).toEqual([]);
    expect(checkExchange(ex).facets.has('MAPI-4:complete')).toBe(true);
    // The service that retrieves nothing: an empty context with empty_context is right, and MAPI-4 untested.
    const nothing = { ...exchange({ warnings: [{ code: 'empty_context' }] }), unconstrained: retrieves([]) };
    const out = checkExchange(nothing);
    expect(out.findings).toEqual([]);
    expect(out.facets.has('MAPI-4:left-out')).toBe(false);
  });

  it('a candidate represented only through a derived memory the service retrieves is in play', () => {
    const ex = { ...exchange({ segments: [seg('a', 'alpha')] }), unconstrained: retrieves([seg('a', 'alpha'), derived('k1', ['b'])]) };
    expect(checkExchange(ex).findings).toEqual([
      { clause: 'MAPI-4', message: 'truncated is false, but candidates the service retrieves for the task are represented by no segment: episode/b (block b)' },
    ]);
  });

  it('truncated true is wrong only when the answer holds everything a complete unconstrained answer had, with nothing excluded', () => {
    const truncated = { truncated: true, warnings: [{ code: 'truncated' }] };
    const all = {
      ...exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], ...truncated }),
      unconstrained: retrieves([seg('a', 'alpha'), seg('b', 'beta')]),
    };
    expect(checkExchange(all).findings.map((f) => f.message)).toEqual([
      'truncated is true, but the answer holds all 2 memories the service retrieves for the task with no budget or cap',
    ]);
    // A derived memory left out is something left out.
    const lessDerived = { ...all, unconstrained: retrieves([seg('a', 'alpha'), seg('b', 'beta'), derived('k1', ['a'])]) };
    expect(clauses(lessDerived)).toEqual([]);
    // An unconstrained answer that was itself truncated does not show everything.
    expect(clauses({ ...all, unconstrained: retrieves([seg('a', 'alpha'), seg('b', 'beta')], true) })).toEqual([]);
    // With an exclusion the service may count the excluded memory's derivations as left out: not judged.
    const excluding = { ...all, sent: { ...all.sent, constraints: { excludedRefs: [ref('zz')] } } };
    expect(checkExchange(excluding).tested.has('MAPI-4')).toBe(false);
  });

  it('MAPI-8 is tested only by an excluded ref the service would otherwise retrieve', () => {
    const sent = { constraints: { excludedRefs: [ref('b')] } };
    const base = exchange({ segments: [seg('a', 'alpha')] }, sent);
    expect(checkExchange({ ...base, unconstrained: retrieves([seg('a', 'alpha')]) }).tested.has('MAPI-8')).toBe(false);
    expect(checkExchange({ ...base, unconstrained: retrieves([seg('a', 'alpha'), seg('b', 'beta')]) }).facets.has('MAPI-8:retrieved')).toBe(true);
    const shown = { ...exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }, sent), unconstrained: retrieves([seg('a', 'alpha')]) };
    // A violation tests the clause whatever the service retrieves.
    expect(checkExchange(shown).findings.map((f) => f.clause)).toEqual(['MAPI-8']);
    expect(checkExchange(shown).tested.has('MAPI-8')).toBe(true);
  });

  it('MAPI-9 is tested when the service retrieves more than the cap; MAPI-3 when the candidates exceed the budget', () => {
    const capped = exchange(
      { segments: [seg('a', 'alpha')], truncated: true, warnings: [{ code: 'truncated' }] },
      { budget: { maxTokens: 10, reservedTokens: 2, maxSegments: 1 } },
    );
    expect(checkExchange({ ...capped, unconstrained: retrieves([seg('a', 'alpha')]) }).facets.has('MAPI-9:pressed')).toBe(false);
    const pressed = checkExchange({ ...capped, unconstrained: retrieves([seg('a', 'alpha'), derived('k1', ['a'])]) });
    expect(pressed.facets.has('MAPI-9:pressed')).toBe(true);
    expect(pressed.findings).toEqual([]);
    // "alpha" and "beta" cost 1 token each by the kit's estimate: 2 fit in 10 - 2, not in 2 - 1.
    expect(checkExchange(capped).facets.has('MAPI-3:pressed')).toBe(false);
    const tight = exchange(
      { segments: [seg('a', 'alpha')], tokenEstimate: 1, truncated: true, warnings: [{ code: 'truncated' }] },
      { budget: { maxTokens: 2, reservedTokens: 1 } },
    );
    expect(checkExchange(tight).facets.has('MAPI-3:pressed')).toBe(true);
    expect(clauses(tight)).toEqual([]);
  });
});

describe('contract checks: a misbehaving service never takes down the run', () => {
  it('any JSON as the answer, the repeat or the unconstrained answer gives findings, never a throw', () => {
    const segLike = fc.record(
      {
        ref: fc.oneof(fc.jsonValue(), fc.constant(ref('a'))),
        content: fc.jsonValue(),
        provenance: fc.oneof(fc.jsonValue(), fc.record({ sourceRefs: fc.array(fc.jsonValue()) })),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({
        context: fc.record(
          {
            segments: fc.oneof(fc.jsonValue(), fc.array(segLike)),
            truncated: fc.jsonValue(),
            tokenEstimate: fc.jsonValue(),
            warnings: fc.oneof(fc.jsonValue(), fc.array(fc.record({ code: fc.jsonValue() }))),
          },
          { requiredKeys: [] },
        ),
      }),
    );
    fc.assert(
      fc.property(body, body, body, (first, again, unconstrained) => {
        const out = checkExchange({ ...exchange({}), body: first, again, unconstrained });
        // Every finding's clause counts as tested, and every answer tests the schema.
        for (const f of out.findings) expect(out.tested.has(f.clause)).toBe(true);
        expect(out.tested.has('MAPI-2')).toBe(true);
      }),
      { numRuns: 300, seed: 10 },
    );
  });
});

describe('the clauses are the ones SPEC.md section 16 defines', () => {
  it('same ids, same order, all in section 16', async () => {
    const { specRequirements } = await import('../../vocabulary/spec.js');
    const { CLAUSES } = await import('../../contract/index.js');
    const mapi = specRequirements().filter((r) => r.id.startsWith('MAPI-'));
    expect(mapi.map((r) => r.id)).toEqual(CLAUSES.map((c) => c.id));
    expect(new Set(mapi.map((r) => r.section))).toEqual(new Set(['16. The memory-api contract']));
  });
});

describe('contract checks: segments obey the status filters (MAPI-13)', () => {
  const withStatus = (status: string, sent: Partial<Exchange['sent']>, segments = [seg('a', 'alpha'), seg('b', 'beta')]) =>
    exchange({ segments, warnings: [{ code: `${status}_memory_included` }] }, sent, [['episode/b', status]]);

  it('a disputed memory under includeDisputed false breaks MAPI-13, named with the filter; under true it does not', () => {
    expect(checkExchange(withStatus('disputed', { filters: { includeDisputed: false } })).findings).toEqual([
      { clause: 'MAPI-13', message: 'segment 1 (block b) is a memory the service marks disputed, which filters.includeDisputed false keeps out' },
    ]);
    expect(clauses(withStatus('disputed', { filters: { includeDisputed: true } }))).toEqual([]);
  });

  it('a superseded memory under includeSuperseded false breaks MAPI-13; with nothing said it is not judged', () => {
    expect(clauses(withStatus('superseded', { filters: { includeSuperseded: false } }))).toEqual(['MAPI-13']);
    expect(clauses(withStatus('superseded', {}))).toEqual([]);
  });

  it('a false includeDisputed in either filters or constraints keeps disputed memories out', () => {
    const both = withStatus('disputed', { filters: { includeDisputed: true }, constraints: { includeDisputed: false } });
    expect(checkExchange(both).findings.map((f) => f.message)).toEqual([
      'segment 1 (block b) is a memory the service marks disputed, which constraints.includeDisputed false keeps out',
    ]);
  });

  it('a required ref may bring a kept-out memory in, or leave it out with the warning; a tombstoned one never enters', () => {
    const required = { filters: { includeDisputed: false }, constraints: { mustIncludeRefs: [ref('b')] } };
    expect(clauses(withStatus('disputed', required))).toEqual([]);
    const leftOut = exchange({ segments: [seg('a', 'alpha')], warnings: [{ code: 'required_ref_omitted' }] }, required, [['episode/b', 'disputed']]);
    expect(clauses(leftOut)).toEqual([]);
    const tomb = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }, { constraints: { mustIncludeRefs: [ref('b')] } }, [['episode/b', 'tombstoned']]);
    expect(checkExchange(tomb).findings.map((f) => f.clause)).toEqual(['MAPI-13']);
  });

  it('pending and failed memories are not judged by MAPI-13, and are no candidates', () => {
    for (const status of ['pending', 'failed']) {
      const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')] }, { filters: { includeDisputed: false, includeSuperseded: false } }, [
        ['episode/b', status],
      ]);
      expect(clauses(ex), status).toEqual([]);
      const without = exchange({ segments: [seg('a', 'alpha')] }, {}, [['episode/b', status]]);
      expect(checkExchange(without).facets.has('MAPI-4:left-out'), status).toBe(false);
    }
  });

  it('is put to the test only by a kept-out memory the service retrieves once the filters are opened', () => {
    const filtered = exchange({ segments: [seg('a', 'alpha')] }, { filters: { includeDisputed: false } }, [['episode/b', 'disputed']]);
    expect(checkExchange(filtered).tested.has('MAPI-13')).toBe(false);
    const opened = (segments: unknown[]) => ({ ...filtered, opened: { context: { segments } } });
    expect(checkExchange(opened([seg('a', 'alpha')])).tested.has('MAPI-13')).toBe(false);
    const out = checkExchange(opened([seg('a', 'alpha'), seg('b', 'beta')]));
    expect([...out.facets].filter((f) => f.startsWith('MAPI-13'))).toEqual(['MAPI-13:disputed']);
    expect(out.findings).toEqual([]);
  });

  it('keptOut names what the request keeps out, required refs aside', async () => {
    const { keptOut } = await import('../../contract/index.js');
    const ex = exchange({}, { filters: { includeDisputed: false, includeSuperseded: false }, constraints: { mustIncludeRefs: [ref('a')] } }, [
      ['episode/a', 'disputed'],
      ['episode/b', 'superseded'],
    ]);
    expect([...keptOut(ex)]).toEqual(['episode/b']);
  });
});

describe('contract checks: the kit counts the budget itself (MAPI-3)', () => {
  const long = 'x'.repeat(40); // 10 tokens by NUM-2

  it('segments that cost more than the budget break MAPI-3, however small the tokenEstimate', () => {
    const ex = {
      ...exchange({ segments: [seg('a', long)], tokenEstimate: 5 }, { budget: { maxTokens: 10, reservedTokens: 2 } }),
      ingested: new Map([['episode/a', { blockId: 'a', text: long }]]),
    };
    const out = checkExchange(ex);
    expect(out.findings).toEqual([
      {
        clause: 'MAPI-3',
        message:
          "the segments cost 10 tokens by the kit's count (4 code points a token, NUM-2), more than maxTokens 10 - reservedTokens 2 = 8 (the answer says tokenEstimate 5)",
      },
    ]);
    expect(out.budget).toEqual({ estimate: 5, counted: 10 });
  });

  it('an undercount within the budget is reported, not failed', () => {
    const ex = exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], tokenEstimate: 0 });
    const out = checkExchange(ex);
    expect(out.findings).toEqual([]);
    expect(out.budget).toEqual({ estimate: 0, counted: 2 });
  });

  it('counts with the declared estimator', async () => {
    const { loadEstimator } = await import('../../contract/index.js');
    const three = (await loadEstimator('3'))!;
    // NUM-2's form with 3: max(1, floor(code points / 3)); code points, not bytes.
    expect([three.cost(''), three.cost('abcdefg'), three.cost('éééééé')]).toEqual([1, 2, 2]);
    const ex = {
      ...exchange({ segments: [seg('a', 'alpha'), seg('b', 'beta')], tokenEstimate: 2 }, { budget: { maxTokens: 4, reservedTokens: 1 } }),
      estimator: three,
    };
    // alpha 1 + beta 1 = 2 by 3 code points a token: within 3.
    expect(clauses(ex)).toEqual([]);
    const perChar = { spec: '1', name: '1 code point a token', cost: (s: string) => [...s].length };
    expect(checkExchange({ ...ex, estimator: perChar }).findings.map((f) => f.message)).toEqual([
      "the segments cost 9 tokens by the kit's count (1 code point a token), more than maxTokens 4 - reservedTokens 1 = 3 (the answer says tokenEstimate 2)",
    ]);
    const o200k = (await loadEstimator('o200k_base'))!;
    const { ENCODINGS } = await import('../../running/tokens.js');
    expect(o200k.cost('a recalled note about the billing migration')).toBe(ENCODINGS.o200k_base('a recalled note about the billing migration'));
    expect(await loadEstimator('0')).toBeUndefined();
    expect(await loadEstimator('p50k_base')).toBeUndefined();
  });
});

describe('contract checks: truncated with required refs (MAPI-4)', () => {
  const retrieves = (segments: unknown[]) => ({ context: { segments, truncated: false } });

  it('truncated true is not judged while a required ref is absent from the answer', () => {
    const truncated = { truncated: true, warnings: [{ code: 'truncated' }, { code: 'required_ref_omitted' }] };
    const ex = {
      ...exchange({ segments: [seg('a', 'alpha')], ...truncated }, { constraints: { mustIncludeRefs: [ref('zz')] } }),
      unconstrained: retrieves([seg('a', 'alpha')]),
    };
    const out = checkExchange(ex);
    expect(out.findings).toEqual([]);
    expect(out.facets.has('MAPI-4:complete')).toBe(false);
    // With the required ref held, the same answer is judged: everything is there, so truncated must be false.
    const held = {
      ...exchange({ segments: [seg('a', 'alpha')], truncated: true, warnings: [{ code: 'truncated' }] }, { constraints: { mustIncludeRefs: [ref('a')] } }),
      unconstrained: retrieves([seg('a', 'alpha')]),
    };
    expect(clauses(held)).toEqual(['MAPI-4']);
  });
});

describe('contract checks: provenance names what was ingested (MAPI-10)', () => {
  const actor = { id: 'ctxconform', kind: 'tool' };
  const known = (provenance: unknown, more: Partial<Exchange> = {}) => ({
    ...exchange({
      segments: [
        { ...seg('a', 'alpha'), provenance },
        { ...seg('b', 'beta'), provenance: { createdBy: actor } },
      ],
    }),
    ingested: new Map([
      ['episode/a', { blockId: 'a', text: 'alpha', createdBy: actor, dedupeKey: 'a' }],
      ['episode/b', { blockId: 'b', text: 'beta', createdBy: actor, dedupeKey: 'b' }],
    ]),
    ...more,
  });

  it('{} names nothing it was ingested with', () => {
    expect(checkExchange(known({})).findings).toEqual([
      {
        clause: 'MAPI-10',
        message:
          'segment 0 (block a): provenance {} names nothing it was ingested with (createdBy "ctxconform", dedupeKey "a", or the memory itself in sourceRefs)',
      },
    ]);
  });

  it('createdBy (whole or by id), dedupeKey, or sourceRefs naming the memory itself each suffice', () => {
    for (const p of [
      { createdBy: actor },
      { createdBy: 'ctxconform' },
      { dedupeKey: 'a' },
      { sourceRefs: [ref('a')] },
      { createdBy: { id: 'ctxconform' }, at: 'x' },
    ]) {
      expect(clauses(known(p)), JSON.stringify(p)).toEqual([]);
    }
  });

  it('a member that names something else fails, named', () => {
    expect(checkExchange(known({ createdBy: { id: 'ctxconform', kind: 'service' } })).findings.map((f) => f.message)).toEqual([
      'segment 0 (block a): provenance.createdBy is {"id":"ctxconform","kind":"service"}, not {"id":"ctxconform","kind":"tool"}, the actor it was ingested with',
    ]);
    expect(checkExchange(known({ createdBy: actor, dedupeKey: 'b' })).findings.map((f) => f.message)).toEqual([
      'segment 0 (block a): provenance.dedupeKey is "b", not "a", the dedupeKey it was ingested with',
    ]);
    // Only a member the kit did not send: nothing named.
    expect(clauses(known({ sourceRefs: [ref('b')] }))).toEqual(['MAPI-10']);
  });

  it("a type error is MAPI-2's: a content or provenance of the wrong type is not failed again, and says why MAPI-10 went untested", () => {
    const notString = checkExchange(
      known(
        { createdBy: actor },
        {
          body: answer([
            { ...seg('a', 'alpha'), content: { text: 'alpha' }, provenance: { createdBy: actor } },
            { ...seg('b', 'beta'), content: 7, provenance: { createdBy: actor } },
          ]),
        },
      ),
    );
    expect(notString.findings.map((f) => f.clause)).toEqual(['MAPI-2']);
    expect(notString.facets.has('MAPI-10:not-string')).toBe(true);
    expect(notString.facets.has('MAPI-10:ingested')).toBe(false);
    const badProvenance = checkExchange(known('from ctxconform'));
    expect(badProvenance.findings.map((f) => f.clause)).toEqual(['MAPI-2']);
  });
});

describe('--require-tested and the untested clauses (verdict.ts)', () => {
  it('reads all, MAPI ids and contract names; anything else is a problem naming it', async () => {
    const { parseRequireTested } = await import('../../contract/verdict.js');
    expect(parseRequireTested('all')).toEqual({ required: 'all' });
    expect(parseRequireTested('MAPI-11,contract/status-filters,mapi-11')).toEqual({ required: ['MAPI-11', 'MAPI-13'] });
    expect(parseRequireTested('MAPI-14')).toEqual({ problem: expect.stringContaining('not "MAPI-14"') });
  });

  it('names every skipped clause; fails only the required ones, and those not run', async () => {
    const { contractGate } = await import('../../contract/verdict.js');
    const result = (id: string, status: 'pass' | 'skip' | 'fail') => ({
      id: `contract/${id}`,
      kind: 'contract' as const,
      level: 'contract' as const,
      status,
      requirements: [id],
      duration_ms: 0,
    });
    const report = {
      kit: { name: 'ctxconform' as const, version: '0', spec: '1' },
      implementation: { name: 'x', version: '0', profiles: [], capabilities: [] },
      summary: { total: 3, pass: 1, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 2 },
      cases: [result('MAPI-1', 'pass'), result('MAPI-11', 'skip'), result('MAPI-13', 'skip')],
    };
    expect(contractGate(report, undefined)).toEqual({ untested: ['MAPI-11', 'MAPI-13'], failing: [], notRun: [], suffix: '; untested: MAPI-11, MAPI-13' });
    expect(contractGate(report, ['MAPI-1'])).toMatchObject({ failing: [] });
    expect(contractGate(report, ['MAPI-11', 'MAPI-3'])).toMatchObject({
      failing: ['MAPI-11', 'MAPI-3'],
      notRun: ['MAPI-3'],
      suffix: '; untested: MAPI-11, MAPI-13; not run: MAPI-3',
    });
    const { requireTestedResults } = await import('../../contract/verdict.js');
    const gated = requireTestedResults(report, contractGate(report, ['MAPI-11', 'MAPI-3']));
    expect(gated.cases.map((c) => `${c.requirements[0]} ${c.status}`)).toEqual(['MAPI-1 pass', 'MAPI-11 fail', 'MAPI-13 skip', 'MAPI-3 fail']);
    expect(gated.summary).toMatchObject({ total: 4, pass: 1, fail: 2, skip: 1 });
    expect(contractGate(report, 'all').failing).toHaveLength(12);
  });
});
