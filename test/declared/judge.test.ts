/**
 * SPEC DECL-4: a golden case judged for an implementation that declares
 * constants. Matchers the reference computed with the constants meets are
 * judged as written; the others take their expected values from it, in their
 * own form; nothing is derived for a declaration that changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { assemble } from '../../reference/index.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { declaredConstants, isSpecConstants } from '../../judging/expectation.js';
import { judge, skipReason } from '../../judging/judge.js';
import { judgeRecorded } from '../../traffic/replay/judge.js';
import { fromFunctions } from '../../adapters/inprocess.js';
import { mutant } from '../fixtures/broken/mutant.js';
import { TUNED_CORE } from '../fixtures/declared/constants.js';
import type { Expectation, GoldenCase } from '../../vocabulary/types.js';
import type { Manifest, Outcome } from '../../protocol/types.js';
import type { DeclaredConstants } from '../../protocol/assembly.js';
import { TUNED } from '../fixtures/declared/constants.js';

const ALL: Manifest = { name: 't', version: '1', profiles: ['tiered', 'ranked'], capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned'] };
const DECLARED: Manifest = { ...ALL, constants: TUNED };

const asOutcome = (answer: unknown): Outcome => {
  const a = answer as { error?: { code: string; message: string } };
  return a.error ? { kind: 'error', code: a.error.code, message: a.error.message, value: answer } : { kind: 'result', value: answer };
};
const answerOf = (request: unknown, constants?: DeclaredConstants): Outcome => asOutcome(assemble(request, constants ? { constants } : {}));

function golden(request: unknown, expect: Expectation, extra: Partial<GoldenCase> = {}): GoldenCase {
  return {
    id: 'made/up',
    file: 'made/up.yaml',
    description: 'x',
    requirements: ['TIER-4'],
    profile: 'tiered',
    since: 'v1',
    capabilities: [],
    tags: [],
    request,
    expect,
    ...extra,
  };
}

describe('which declarations count', () => {
  it('a declaration equal in effect to the specification is the specification: plain tiered', () => {
    expect(isSpecConstants({})).toBe(true);
    expect(
      isSpecConstants({
        chars_per_token: 4,
        tier_fractions: { working: 40, episodic: 20, longterm: 25, knowledge: 15 },
        source_to_tier: { memory: 'longterm', notes: 'working' },
      }),
    ).toBe(true);
    expect(declaredConstants({ constants: { source_to_tier: { notes: 'working' } } })).toBeUndefined();
    expect(declaredConstants({})).toBeUndefined();
    for (const c of [
      { chars_per_token: 3 },
      { source_to_tier: { memory: 'episodic' } },
      { tier_fractions: { working: 40, episodic: 20, longterm: 25, knowledge: 14 } },
    ] as DeclaredConstants[]) {
      expect(declaredConstants({ constants: c }), JSON.stringify(c)).toEqual(c);
    }
  });

  it('an invalid declaration is refused, not judged with', () => {
    expect(() => declaredConstants({ constants: { tier_fractions: { working: 50, episodic: 50, longterm: 50, knowledge: 0 } } })).toThrow(
      /constants\/tier_fractions: the tier shares sum to 150/,
    );
  });
});

describe('the corpus under the tuned declaration', () => {
  const corpus = loadCorpus().cases.filter((c) => skipReason(c, ALL) === undefined);

  it('every validation case, every ranked case and every case the constants do not touch is judged as written', () => {
    for (const c of corpus) {
      const v = judge(c, answerOf(c.request, TUNED), DECLARED);
      expect(v.status, `${c.id}: ${v.message}`).toBe('pass');
      if (c.expect.error === 'invalid_request' || c.profile === 'ranked') expect(v.derived, c.id).toBeUndefined();
      // Where the reference with the constants answers as the case says, nothing is derived.
      const same = JSON.stringify(assemble(c.request, { constants: TUNED })) === JSON.stringify(assemble(c.request));
      if (same) expect(v.derived, c.id).toBeUndefined();
    }
  });

  it("a case judged with the declared constants still fails the answer of the specification's constants where they differ", () => {
    let failed = 0;
    for (const c of corpus) {
      const v = judge(c, answerOf(c.request), DECLARED);
      if (v.derived === undefined) expect(v.status, c.id).toBe('pass');
      else if (v.status === 'fail') failed++;
    }
    expect(failed).toBeGreaterThan(20);
  });
});

describe('deriving one matcher at a time', () => {
  // Budget 20. The spec: tiers 8/4/5/3; a (32 chars, 8 tokens) fills working; b (notes: working; 36 chars, 9 tokens)
  // is set aside and the pool 0 + 4 + 5 + 3 = 12 takes it. Tuned: tiers 10/4/4/2; a (10 tokens) fills working;
  // b (notes: knowledge; 12 tokens) fits no tier and the pool 0 + 4 + 4 + 2 = 10 refuses it.
  const request = {
    now: 0,
    budget: 20,
    blocks: [
      { block_id: 'a', source: 'coverage', content: 'a'.repeat(32), priority: 2 },
      { block_id: 'b', source: 'notes', content: 'IGNORE ALL'.padEnd(36, '.'), priority: 1 },
    ],
  };

  it('a non-numeric matcher the constants do not change is kept as written and still judged', () => {
    const spec = assemble(request) as { included: string[] };
    const tuned = assemble(request, { constants: TUNED }) as { included: string[] };
    expect(spec.included).toEqual(['a', 'b']);
    expect(tuned.included).toEqual(['a']);
    const c = golden(request, {
      included: ['a', 'b'],
      context_excludes: ['[memory'],
      context_contains: ['[coverage \u00b7 a]', 'IGNORE ALL'],
      total_budget: 20,
    });
    const right = judge(c, answerOf(request, TUNED), DECLARED);
    expect(right).toMatchObject({ status: 'pass', derived: ['included', 'context_contains', 'context'] });
    // The kept parts of the derived matchers, and the matchers kept as written, still catch a wrong answer.
    const wrong = asOutcome({ ...(assemble(request, { constants: TUNED }) as object), total_budget: 21 });
    expect(judge(c, wrong, DECLARED)).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(
        /^judged with the declared constants: included, context_contains, context from the reference computed with them \(SPEC DECL-4\)\n/,
      ),
    });
    const leaked = asOutcome({ ...(assemble(request, { constants: TUNED }) as object), context: '[memory \u00b7 x]\n' });
    expect(judge(c, leaked, DECLARED).message).toMatch(/context_excludes/);
    // The spec's answer is wrong for this implementation.
    expect(judge(c, answerOf(request), DECLARED).status).toBe('fail');
  });

  it('segments keep the members the case names, for every segment of the reference', () => {
    const c = golden(
      request,
      {
        segments: [
          { block_id: 'a', tokens: 8 },
          { block_id: 'b', tier: 'working' },
        ],
      },
      { capabilities: ['working_context'] },
    );
    const right = judge(c, answerOf(request, TUNED), DECLARED);
    expect(right).toMatchObject({ status: 'pass', derived: ['segments'] });
    const wrongTier = assemble(request, { constants: TUNED }) as { segments: { tier: string }[] };
    wrongTier.segments[0]!.tier = 'episodic';
    expect(judge(c, asOutcome(wrongTier), DECLARED).status).toBe('fail');
  });

  it('pinned_overflow follows the constants both ways', () => {
    const pinned = { now: 0, budget: 10, blocks: [{ block_id: 'p', source: 'coverage', content: 'x'.repeat(40), priority: 1, pinned: true }] };
    // 10 tokens at 4 per token, 13 at 3: the spec fits, the tuning overflows.
    const fits = golden(pinned, { included: ['p'], estimated_tokens: 10 }, { capabilities: ['pinned'] });
    expect(judge(fits, answerOf(pinned, TUNED), DECLARED)).toMatchObject({ status: 'pass', derived: ['error'] });
    expect(judge(fits, answerOf(pinned), DECLARED).status).toBe('fail');
    const small = { ...pinned, budget: 12, blocks: [{ ...pinned.blocks[0]!, content: 'x'.repeat(52) }] };
    const wide: DeclaredConstants = { chars_per_token: 5 };
    // 13 tokens at 4 per token overflow 12; 10 at 5 fit.
    const overflows = golden(small, { error: 'pinned_overflow' }, { capabilities: ['pinned'] });
    const m = { ...ALL, constants: wide };
    expect(judge(overflows, answerOf(small, wide), m)).toMatchObject({ status: 'pass', derived: ['error'] });
    expect(judge(overflows, answerOf(small), m).status).toBe('fail');
  });
});

describe('replay with declared constants', () => {
  it('a recorded request is judged against the reference computed with them', async () => {
    const request = {
      now: 0,
      budget: 30,
      blocks: [
        { block_id: 'a', source: 'notes', content: 'x'.repeat(45), priority: 1 },
        { block_id: 'b', source: 'coverage', content: 'y'.repeat(45), priority: 2 },
      ],
    };
    const core: Manifest = { name: 'tuned', version: '1', profiles: ['tiered'], capabilities: [] };
    const impl = fromFunctions(mutant(TUNED_CORE), undefined, core);
    const declared = await judgeRecorded(impl, { ...core, constants: TUNED }, request, { timeoutMs: 5000, twice: true });
    expect(declared.verdict).toMatchObject({ status: 'pass' });
    const plain = await judgeRecorded(impl, core, request, { timeoutMs: 5000, twice: false });
    expect(plain.verdict).toMatchObject({ status: 'fail', message: expect.stringMatching(/differs from the reference/) });
  });
});
