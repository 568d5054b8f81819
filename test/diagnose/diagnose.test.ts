/**
 * The diagnosis on hand-made runs: how answers are compared (numbers by
 * value, warnings as a set, errors by code, reasons exactly), the spelling of
 * reasons read off the answers, what a contradiction does, and the greedy
 * cover of independent defects. Expectations come from SPEC.md and from the
 * definitions in diagnosis/diagnose.ts, never from a run's output.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { asOutcome, CATALOGUE, diagnose, modelAssemble, reproduces } from '../../diagnosis/index.js';
import type { Defects, Observation } from '../../diagnosis/index.js';
import type { Manifest, Outcome } from '../../protocol/types.js';
import { CORE, FULL, MEMO, modelImplementation, observe } from './helpers.js';

const entry = (id: string): Defects => CATALOGUE.find((e) => e.id === id)!.defects;

describe("reproduces: the model's answer against the implementation's", () => {
  const result = (value: unknown): Outcome => ({ kind: 'result', value });
  const base = {
    context: '',
    included: [],
    estimated_tokens: 0,
    total_budget: 5,
    omissions: [],
    segments: [{ block_id: 'a', score: -0 }],
    warnings: [{ code: 'empty_context', message: 'm' }, { code: 'truncated' }],
    generated_at: 0,
  };

  it('reads numbers by value: -0 is 0 (NUM-5, section 7)', () => {
    expect(reproduces(base, result({ ...base, segments: [{ block_id: 'a', score: 0 }], generated_at: -0 }))).toBe(true);
    expect(reproduces(base, result({ ...base, generated_at: 1 }))).toBe(false);
  });

  it('reads warnings as a multiset of {code, block_id}, their messages free text', () => {
    expect(reproduces(base, result({ ...base, warnings: [{ code: 'truncated', message: 'x' }, { code: 'empty_context' }] }))).toBe(true);
    expect(reproduces(base, result({ ...base, warnings: [{ code: 'truncated' }, { code: 'truncated' }] }))).toBe(false);
    expect(reproduces(base, result({ ...base, warnings: [{ code: 'truncated' }] }))).toBe(false);
  });

  it('compares everything else member for member: an extra or a missing member, a reason spelled otherwise, an order', () => {
    expect(reproduces(base, result({ ...base, instructions: 'none' }))).toBe(false);
    const { generated_at: _g, ...missing } = base;
    expect(reproduces(base, result(missing))).toBe(false);
    const omitted = {
      ...base,
      omissions: [
        { block_id: 'a', reason: 'budget_exhausted' },
        { block_id: 'b', reason: 'expired' },
      ],
    };
    expect(
      reproduces(
        omitted,
        result({
          ...omitted,
          omissions: [
            { block_id: 'a', reason: 'budget' },
            { block_id: 'b', reason: 'expired' },
          ],
        }),
      ),
    ).toBe(false);
    expect(reproduces(omitted, result({ ...omitted, omissions: [omitted.omissions[1], omitted.omissions[0]] }))).toBe(false);
  });

  it("reads an error answer by its code (the message is the implementation's own text, ERR-1)", () => {
    const error = { error: { code: 'invalid_request', message: 'the reference says this' } };
    expect(reproduces(error, { kind: 'error', code: 'invalid_request', message: 'bad', value: {} })).toBe(true);
    expect(reproduces(error, { kind: 'error', code: 'pinned_overflow', message: 'bad', value: {} })).toBe(false);
    expect(reproduces(error, result(base))).toBe(false);
  });

  it('reproduces no timeout, crash or unreadable answer', () => {
    for (const outcome of [
      { kind: 'timeout', message: 't' },
      { kind: 'crash', message: 'c' },
      { kind: 'protocol', message: 'p' },
    ] as Outcome[])
      expect(reproduces(base, outcome)).toBe(false);
  });
});

describe('diagnose', () => {
  it('gives nothing for a run without failures, however many passes', async () => {
    expect(diagnose([], { memo: MEMO })).toBeUndefined();
    const observations = await observe(modelImplementation({}, CORE), CORE);
    expect(observations.length).toBeGreaterThan(100);
    expect(diagnose(observations, { memo: MEMO })).toBeUndefined();
  });

  it('tells causes in the same words once: extra members whose values differ from answer to answer are one cause', async () => {
    // Each answer carries an undeclared member, with one of three values: three instances of one entry, in one sentence.
    const impl = modelImplementation({}, CORE);
    const varied = fromFunctions(
      async (request: unknown) => {
        const answer = (await impl.assemble(request, { timeoutMs: 5000 })) as Outcome;
        if (answer.kind !== 'result') return { error: { code: 'invalid_request', message: 'x' } };
        const n = (request as { blocks?: unknown[] }).blocks?.length ?? 0;
        return { ...(answer.value as object), notes: ['a', 'b', 'c'][n % 3] };
      },
      undefined,
      CORE,
    );
    const d = diagnose(await observe(varied, CORE), { memo: MEMO })!;
    const lines = d.causes.map((c) => `${c.id}: ${c.summary}`);
    expect(new Set(lines).size).toBe(lines.length);
    const extra = d.causes.find((c) => c.id === 'extra-result-members')!;
    expect(extra.explains).toBe(extra.explained.length);
    expect(d.unexplained).toEqual([]);
  });

  it('leaves failures without an answer (a timeout, a crash) unexplained', async () => {
    const observations = await observe(modelImplementation({}, CORE), CORE);
    const broken: Observation[] = observations.map((o, i) =>
      i < 2 ? { ...o, outcome: { kind: i === 0 ? 'timeout' : 'crash', message: 'x' }, passed: false } : o,
    );
    const d = diagnose(broken, { memo: MEMO });
    expect(d).toEqual({ causes: [], unexplained: [observations[0]!.id, observations[1]!.id], failing: 2 });
  });

  it('is not thrown by answers of any shape: each is reproduced by nothing, or by what reproduces it', async () => {
    const observations = await observe(modelImplementation({}, FULL), FULL);
    const garbage: unknown[] = [
      null,
      [],
      'context',
      42,
      { context: 1 },
      { omissions: 'x', included: null },
      { omissions: [null, 1, { block_id: 3 }] },
      { error: null },
    ];
    const odd: Observation[] = observations.map((o, i) => (i < garbage.length ? { ...o, outcome: { kind: 'result', value: garbage[i] }, passed: false } : o));
    const d = diagnose(odd, { memo: MEMO })!;
    expect(d.failing).toBe(garbage.length);
    expect(d.unexplained.length + d.causes.reduce((n, c) => n + c.explains, 0)).toBeGreaterThanOrEqual(garbage.length);
  });

  it('names two independent defects as two causes, each with its own failures, and lists what neither explains', async () => {
    const observations = await observe(modelImplementation({ ...entry('remainder-in-pool'), ...entry('null-read-as-absent') }, CORE), CORE);
    const hung = observations.findIndex((o) => o.passed);
    const d = diagnose(
      observations.map((o, i) => (i === hung ? { ...o, outcome: { kind: 'timeout', message: 'x' }, passed: false } : o)),
      { memo: MEMO },
    )!;
    expect(d.causes.map((c) => c.id)).toEqual(expect.arrayContaining(['remainder-in-pool', 'null-read-as-absent']));
    expect(d.causes.slice(0, 2).every((c) => c.contradicts === 0 && c.failing === d.failing)).toBe(true);
    // Each failure is explained once: remainder failures are budget cases, null failures validation cases.
    const [a, b] = d.causes;
    expect(a!.explained.filter((id) => b!.explained.includes(id))).toEqual([]);
    expect(d.unexplained).toEqual([observations[hung]!.id]);
  });

  it('a contradiction counts against a cause: a defect that explains a failure but would break more passing cases is not named', async () => {
    // An implementation that fails one case the way the ceil estimate would, and passes every other case.
    const manifest: Manifest = CORE;
    const config = { capabilities: [] };
    const observations = await observe(modelImplementation({}, manifest), manifest);
    const ceil = entry('ceil-estimate');
    const i = observations.findIndex(
      (o) => o.passed && !reproduces(modelAssemble(o.request, config, ceil), o.outcome) && !o.accepts!(asOutcome(modelAssemble(o.request, config, ceil))),
    );
    const once = observations.map((o, k) => (k === i ? { ...o, outcome: asOutcome(modelAssemble(o.request, config, ceil)), passed: false } : o));
    const d = diagnose(once, { memo: MEMO })!;
    // ceil explains that failure, and breaks the other passing cases it changes.
    expect(d.causes.map((c) => c.id)).not.toContain('ceil-estimate');
    expect(d.failing).toBe(1);
  });

  it('a limit keeps the best causes only', async () => {
    const observations = await observe(
      modelImplementation({ ...entry('remainder-in-pool'), ...entry('null-read-as-absent'), ...entry('inclusive-expiry') }, CORE),
      CORE,
    );
    expect(diagnose(observations, { limit: 1, memo: MEMO })!.causes).toHaveLength(1);
    expect(diagnose(observations, { memo: MEMO })!.causes.length).toBeGreaterThanOrEqual(3);
  });
});

describe("the spelling of reasons is the implementation's own (RES-4)", () => {
  /** The defect model answering with these reasons at these sites, as a vendor who spells them so. */
  const spelled = (reasons: Record<string, string>, defects: Defects = {}, manifest: Manifest = CORE) => {
    const config = { capabilities: manifest.capabilities, reasons };
    return fromFunctions((req) => modelAssemble(req, config, defects), undefined, manifest);
  };

  it('codes where cases compare by class pass; where a case pins the originating text, the spelling is named, not a defect', async () => {
    const observations = await observe(spelled({ pool: 'budget_exhausted' }), CORE);
    const failing = observations.filter((o) => !o.passed);
    expect(failing.length).toBeGreaterThan(0);
    const d = diagnose(observations, { memo: MEMO })!;
    expect(d.causes.map((c) => [c.id, c.explains, c.requirements])).toEqual([['reason-spelling', failing.length, ['RES-4']]]);
    expect(d.causes[0]!.summary).toMatch(
      /spelled "budget_exhausted" where these cases pin the originating text "tier budget exhausted; overflow pool exhausted"/,
    );
  });

  it('a defect behind a spelling is still named, its failures reproduced with that spelling', async () => {
    const observations = await observe(spelled({ pool: 'budget' }, entry('remainder-in-pool')), CORE);
    const d = diagnose(observations, { memo: MEMO })!;
    expect(d.causes.map((c) => c.id)).toEqual(expect.arrayContaining(['remainder-in-pool', 'reason-spelling']));
    expect(d.unexplained).toEqual([]);
  });

  it('a reason no class maps is named with CLS-1', async () => {
    const observations = await observe(spelled({ pool: 'over budget' }), CORE);
    const d = diagnose(observations, { memo: MEMO })!;
    expect(d.causes[0]?.id).toBe('reason-spelling');
    expect(d.causes[0]?.requirements).toContain('CLS-1');
    expect(d.causes[0]?.summary).toMatch(/"over budget", which maps to no class of section 10/);
    expect(d.unexplained).toEqual([]);
  });

  it('every site may be spelled (every capability declared)', async () => {
    const observations = await observe(spelled({ required: 'budget', ranked: 'budget' }, {}, FULL), FULL);
    // The required and ranked reasons are codes already; another code of the class passes every case.
    expect(observations.filter((o) => !o.passed).map((o) => o.id)).toEqual([]);
  });
});
