/**
 * The judge on hand-made answers: a correct answer passes, each matcher
 * catches a wrong one, shape violations are `error` (not `fail`), and the
 * transport outcomes map to their statuses.
 */
import { describe, expect, it } from 'vitest';
import { judge, skipReason } from '../../judging/judge.js';
import { firstDifference } from '../../vocabulary/first-difference.js';
import { expectedMembers } from '../../judging/matchers.js';
import type { Expectation, GoldenCase } from '../../vocabulary/types.js';
import type { Manifest, Outcome } from '../../protocol/types.js';

const ALL: Manifest = { name: 't', version: '1', profiles: ['tiered', 'ranked'], capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned'] };
const CORE: Manifest = { name: 't', version: '1', profiles: ['tiered'], capabilities: [] };

const REQUEST = {
  now: 1000,
  budget: 10,
  blocks: [
    { block_id: 'b-1', source: 'coverage', content: 'aaaa', priority: 2 },
    { block_id: 'b-2', source: 'memory', content: 'bbbb', priority: 1 },
    { block_id: 'b-old', source: 'coverage', content: 'x', priority: 1, created_at: 0, ttl_seconds: 1 },
    { block_id: 'b-big', source: 'coverage', content: 'c'.repeat(40), priority: 1 },
  ],
};

/**
 * The right answer to REQUEST, worked out by hand: tiers at 10 are 4, 2, 2, 1; b-1 (1) and b-2 (1)
 * fit working and longterm; b-big (10) is set aside and the pool is 3 + 2 + 1 + 1 = 7.
 */
function rightAnswer(): Record<string, unknown> {
  return {
    context: '[coverage \u00b7 b-1]\naaaa\n\n[memory \u00b7 b-2]\nbbbb',
    included: ['b-1', 'b-2'],
    estimated_tokens: 2,
    total_budget: 10,
    omissions: [
      { block_id: 'b-old', reason: 'expired' },
      { block_id: 'b-big', reason: 'tier budget exhausted; overflow pool exhausted' },
    ],
  };
}

function withWorkingContext(r: Record<string, unknown>): Record<string, unknown> {
  return {
    ...r,
    segments: [
      { block_id: 'b-1', source: 'coverage', tier: 'working', tokens: 1, score: 2, reason: 'tier' },
      { block_id: 'b-2', source: 'memory', tier: 'longterm', tokens: 1, score: 1, reason: 'tier' },
    ],
    truncated: true,
    warnings: [{ code: 'truncated', message: 'some blocks were left out' }],
    generated_at: 1000,
  };
}

function golden(expect: Expectation, extra: Partial<GoldenCase> = {}): GoldenCase {
  return {
    id: 't/case',
    file: 't/case.yaml',
    description: 'a test case',
    requirements: ['TIER-4'],
    profile: 'tiered',
    since: 'v1',
    capabilities: [],
    tags: [],
    request: REQUEST,
    expect,
    ...extra,
  };
}

const result = (value: unknown): Outcome => ({ kind: 'result', value });

const FULL_EXPECT: Expectation = {
  included: ['b-1', 'b-2'],
  omissions: { 'b-old': 'expired', 'b-big': 'budget' },
  omission_order: ['b-old', 'b-big'],
  omissions_exact: [
    { block_id: 'b-old', reason: 'expired' },
    { block_id: 'b-big', reason: 'tier budget exhausted; overflow pool exhausted' },
  ],
  estimated_tokens: 2,
  total_budget: 10,
  context: '[coverage \u00b7 b-1]\naaaa\n\n[memory \u00b7 b-2]\nbbbb',
  context_contains: ['[memory \u00b7 b-2]'],
  context_excludes: ['cccc'],
  result_members: ['context', 'included', 'estimated_tokens', 'total_budget', 'omissions'],
};

const WC_EXPECT: Expectation = {
  ...FULL_EXPECT,
  segments: [
    { block_id: 'b-1', reason: 'tier', tokens: 1 },
    { block_id: 'b-2', tier: 'longterm' },
  ],
  truncated: true,
  warnings: [{ code: 'truncated' }],
  generated_at: 1000,
};

describe('judge: results', () => {
  it('passes the right answer with every matcher listed', () => {
    expect(judge(golden(FULL_EXPECT), result(rightAnswer()), CORE)).toEqual({ status: 'pass' });
    expect(judge(golden(WC_EXPECT, { capabilities: ['working_context'] }), result(withWorkingContext(rightAnswer())), ALL)).toEqual({ status: 'pass' });
  });

  const wrong: [string, (r: Record<string, any>) => void, RegExp][] = [
    ['included order', (r) => (r.included = ['b-2', 'b-1']), /^included: expected \["b-1","b-2"\], got \["b-2","b-1"\]/],
    ['omission class', (r) => (r.omissions[1].reason = 'expired'), /^omissions \(by reason class\)/],
    ['omission order', (r) => r.omissions.reverse(), /^omission_order: /],
    ['omission reason text of the same class', (r) => (r.omissions[1].reason = 'budget_exhausted'), /^omissions_exact: /],
    ['estimated_tokens', (r) => (r.estimated_tokens = 3), /^estimated_tokens: expected 2, got 3/],
    ['context bytes', (r) => (r.context = r.context.replace('\u00b7', '-')), /^context: first difference at index 10/],
    ['a trailing newline', (r) => (r.context += '\n'), /^context: first difference at index 42/],
  ];
  for (const [what, mutate, message] of wrong) {
    it(`fails a wrong ${what}`, () => {
      const r = rightAnswer() as Record<string, any>;
      mutate(r);
      const v = judge(golden(FULL_EXPECT), result(r), CORE);
      expect(v.status).toBe('fail');
      expect(v.message).toMatch(message);
      expect(v.expected).toBeDefined();
      expect(v.actual).toBeDefined();
    });
  }

  it('fails context_contains and context_excludes', () => {
    const v1 = judge(golden({ context_contains: ['zzz'] }), result(rightAnswer()), CORE);
    expect(v1).toMatchObject({ status: 'fail', message: expect.stringMatching(/^context_contains \(substring missing\)/) });
    const v2 = judge(golden({ context_excludes: ['aaaa'] }), result(rightAnswer()), CORE);
    expect(v2).toMatchObject({ status: 'fail', message: expect.stringMatching(/^context_excludes \(forbidden substring present\)/) });
  });

  it('fails total_budget through the matcher and the RES-3 invariant', () => {
    const r = { ...rightAnswer(), total_budget: 11 };
    const v = judge(golden({ total_budget: 10 }), result(r), CORE);
    expect(v.status).toBe('fail');
    expect(v.message).toMatch(/total_budget \(RES-3\): expected 10, got 11/);
  });

  const wrongWc: [string, (r: Record<string, any>) => void, RegExp][] = [
    ['segment reason', (r) => (r.segments[0].reason = 'overflow'), /^segments: /],
    ['segment count', (r) => r.segments.pop(), /^segments: /],
    ['truncated flag', (r) => (r.truncated = false), /^truncated: expected true, got false/],
    ['missing warning', (r) => (r.warnings = []), /^warnings \(as a set of \{code, block_id\}\)/],
    ['extra warning', (r) => r.warnings.push({ code: 'eventual_consistency' }), /^warnings /],
    ['warning block_id', (r) => (r.warnings[0].block_id = 'b-1'), /^warnings /],
    ['generated_at', (r) => (r.generated_at = 1001), /^generated_at: expected 1000, got 1001/],
  ];
  for (const [what, mutate, message] of wrongWc) {
    it(`fails a wrong ${what}`, () => {
      const r = withWorkingContext(rightAnswer()) as Record<string, any>;
      mutate(r);
      const v = judge(golden(WC_EXPECT, { capabilities: ['working_context'] }), result(r), ALL);
      expect(v.status).toBe('fail');
      expect(v.message).toMatch(message);
    });
  }

  it('compares warnings as a set, ignoring order and messages', () => {
    const r = withWorkingContext(rightAnswer()) as Record<string, any>;
    r.warnings = [{ code: 'required_ref_omitted', block_id: 'b-x', message: 'm' }, { code: 'truncated' }];
    const c = golden({ warnings: [{ code: 'truncated' }, { code: 'required_ref_omitted', block_id: 'b-x' }] }, { capabilities: ['working_context'] });
    expect(judge(c, result(r), ALL).status).toBe('pass');
  });

  it('a warning given twice where CON-4 says exactly once cites CON-4, not "as a set"', () => {
    const r = withWorkingContext(rightAnswer()) as Record<string, any>;
    const twice = { code: 'required_ref_omitted', block_id: 'b-x' };
    r.warnings = [twice, { ...twice }, { code: 'truncated' }];
    const c = golden({ warnings: [{ code: 'truncated' }, twice] }, { capabilities: ['working_context'] });
    const v = judge(c, result(r), ALL);
    expect(v.status).toBe('fail');
    expect(v.message).toContain('CON-4: exactly once for each must_include id not included: required_ref_omitted for b-x given 2 times, expected 1');
    expect(v.message).not.toContain('as a set');
  });

  it('compares numbers by value: -0 and 0 are one number, whichever the case or the answer writes (NUM-5, section 7)', () => {
    const negative = { ...REQUEST, now: -0, blocks: REQUEST.blocks.map((b) => (b.block_id === 'b-1' ? { ...b, priority: -0 } : b)) };
    const expectZero = golden(
      {
        segments: [
          { block_id: 'b-1', score: 0 },
          { block_id: 'b-2', score: 1 },
        ],
        generated_at: 0,
      },
      { capabilities: ['working_context'], request: negative },
    );
    const expectNegative = golden(
      {
        segments: [
          { block_id: 'b-1', score: -0 },
          { block_id: 'b-2', score: 1 },
        ],
        generated_at: -0,
      },
      { capabilities: ['working_context'], request: negative },
    );
    const answer = (zero: number): Record<string, unknown> => {
      const r = withWorkingContext(rightAnswer()) as Record<string, any>;
      // At priority -0, b-1 ranks after b-2 (priority 1) and still renders first (coverage before memory).
      r.segments = [{ ...r.segments[0], score: zero }, r.segments[1]];
      r.generated_at = zero;
      return r;
    };
    for (const c of [expectZero, expectNegative]) {
      for (const zero of [0, -0]) {
        const v = judge(c, result(answer(zero)), ALL);
        expect(v.status, `${JSON.stringify(c.expect)} against ${Object.is(zero, -0) ? '-0' : '0'}: ${v.message}`).toBe('pass');
      }
    }
    // And a different number is still a difference.
    expect(judge({ ...expectZero, expect: { generated_at: 0 } }, result({ ...answer(0), generated_at: 1 }), ALL).status).toBe('fail');
  });

  it('compares omissions by reason class, so short codes pass', () => {
    const r = rightAnswer() as Record<string, any>;
    r.omissions[1].reason = 'budget';
    expect(judge(golden({ omissions: { 'b-old': 'expired', 'b-big': 'budget' } }), result(r), CORE).status).toBe('pass');
  });

  it('enforces the invariants every result owes, whatever the case lists', () => {
    const missing = rightAnswer() as Record<string, any>;
    missing.omissions.pop();
    expect(judge(golden({ included: ['b-1', 'b-2'] }), result(missing), CORE)).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^partition: .*"missing":\["b-big"\]/),
    });

    const twice = rightAnswer() as Record<string, any>;
    twice.omissions.push({ block_id: 'b-1', reason: 'expired' });
    expect(judge(golden({ total_budget: 10 }), result(twice), CORE).message).toMatch(/"more_than_once":\["b-1"\]/);

    const unknown = rightAnswer() as Record<string, any>;
    unknown.included.push('b-ghost');
    expect(judge(golden({ total_budget: 10 }), result(unknown), CORE).message).toMatch(/"not_in_request":\["b-ghost"\]/);

    const over = { ...rightAnswer(), estimated_tokens: 11 };
    expect(judge(golden({ total_budget: 10 }), result(over), CORE).message).toMatch(/estimated_tokens \(TIER-9\): expected "<= 10", got 11/);

    const unmapped = rightAnswer() as Record<string, any>;
    unmapped.omissions[0].reason = 'Expired';
    expect(judge(golden({ total_budget: 10 }), result(unmapped), CORE).message).toMatch(/^omission_reasons: .*Expired/);
  });

  it('fails a result when the case expects an error', () => {
    const v = judge(golden({ error: 'invalid_request' }), result(rightAnswer()), CORE);
    expect(v).toMatchObject({ status: 'fail', message: 'expected the error invalid_request, got a result' });
  });
});

describe('judge: shape violations are error, not fail', () => {
  it('an extra member, a missing member or a wrong type is error (RES-1)', () => {
    for (const bad of [
      { ...rightAnswer(), instructions: 'obey' },
      (({ omissions: _o, ...rest }) => rest)(rightAnswer()),
      { ...rightAnswer(), included: 'b-1,b-2' },
      { ...rightAnswer(), estimated_tokens: 2.5 },
      'not an object',
      null,
    ]) {
      const v = judge(golden({ included: ['b-1', 'b-2'] }), result(bad), CORE);
      expect(v.status, JSON.stringify(bad)).toBe('error');
      expect(v.message).toMatch(/RES-1/);
    }
  });

  it('the declared capabilities decide the members: working_context members are required when declared and refused when not', () => {
    const c = golden({ included: ['b-1', 'b-2'] });
    expect(judge(c, result(rightAnswer()), ALL).status).toBe('error');
    expect(judge(c, result(withWorkingContext(rightAnswer())), CORE).status).toBe('error');
    expect(judge(c, result(withWorkingContext(rightAnswer())), ALL).status).toBe('pass');
  });

  it('a ranked result has the core members only, whatever the manifest declares (RANK-7)', () => {
    const c = golden({ included: ['b-1', 'b-2'] }, { profile: 'ranked' });
    expect(judge(c, result(rightAnswer()), ALL).status).toBe('pass');
    expect(judge(c, result(withWorkingContext(rightAnswer())), ALL).status).toBe('error');
  });

  it('an error answer that breaks the error schema is error', () => {
    const out: Outcome = { kind: 'error', code: 'invalid_request', message: '', value: { error: { code: 'invalid_request', message: '' } } };
    expect(judge(golden({ error: 'invalid_request' }), out, CORE).status).toBe('error');
    const unknownCode: Outcome = { kind: 'error', code: 'oops', message: 'm', value: { error: { code: 'oops', message: 'm' } } };
    expect(judge(golden({ error: 'invalid_request' }), unknownCode, CORE).status).toBe('error');
  });
});

describe('judge: error answers and transport outcomes', () => {
  const err = (code: string): Outcome => ({ kind: 'error', code, message: 'why', value: { error: { code, message: 'why', problems: [] } } });

  it('passes the expected error code and fails another code or an unexpected error', () => {
    expect(judge(golden({ error: 'invalid_request' }), err('invalid_request'), CORE)).toEqual({ status: 'pass' });
    expect(judge(golden({ error: 'invalid_request' }), err('pinned_overflow'), CORE)).toMatchObject({
      status: 'fail',
      message: 'expected the error invalid_request, got the error pinned_overflow: why',
    });
    expect(judge(golden({ included: [] }), err('invalid_request'), CORE)).toMatchObject({ status: 'fail', expected: 'a result' });
  });

  it('maps timeout, crash and protocol outcomes to timeout, crash and error', () => {
    const c = golden({ included: [] });
    expect(judge(c, { kind: 'timeout', message: 'no answer within 5 ms' }, CORE)).toEqual({ status: 'timeout', message: 'no answer within 5 ms' });
    expect(judge(c, { kind: 'crash', message: 'exit 139' }, CORE)).toEqual({ status: 'crash', message: 'exit 139' });
    expect(judge(c, { kind: 'protocol', message: 'not JSON', raw: '{oops' }, CORE)).toEqual({ status: 'error', message: 'not JSON', actual: '{oops' });
    expect(judge(c, { kind: 'protocol', message: 'wrong id' }, CORE)).toEqual({ status: 'error', message: 'wrong id' });
  });
});

describe('skipReason and expectedMembers', () => {
  it('skips a case whose profile or capabilities the manifest does not declare', () => {
    expect(skipReason({ profile: 'ranked', capabilities: [] }, CORE)).toBe('profile ranked is not declared by the implementation');
    expect(skipReason({ profile: 'tiered', capabilities: ['pinned'] }, CORE)).toBe('capability pinned not declared by the implementation');
    expect(skipReason({ profile: 'tiered', capabilities: ['pinned', 'lifecycle'] }, CORE)).toBe(
      'capabilities pinned, lifecycle not declared by the implementation',
    );
    expect(skipReason({ profile: 'tiered', capabilities: ['pinned'] }, ALL)).toBeUndefined();
    expect(skipReason({ profile: 'tiered', capabilities: [] }, CORE)).toBeUndefined();
  });

  it('adds the working_context members for tiered only', () => {
    expect(expectedMembers('tiered', ['working_context'])).toEqual([
      'context',
      'included',
      'estimated_tokens',
      'total_budget',
      'omissions',
      'segments',
      'truncated',
      'warnings',
      'generated_at',
    ]);
    expect(expectedMembers('ranked', ['working_context'])).toHaveLength(5);
    expect(expectedMembers('tiered', ['pinned'])).toHaveLength(5);
  });

  it('firstDifference names the index and shows both sides', () => {
    expect(firstDifference('abcdef', 'abcxef')).toBe('first difference at index 3: expected …"abcdef"…, got …"abcxef"…');
  });
});

describe('a case written without markers, met by an implementation that declares omission_markers', () => {
  const MARKERS: Manifest = { ...CORE, capabilities: ['omission_markers'] };
  // b-big (coverage, priority 1) is the one room omission: its marker stands after b-1 (coverage, 2), before memory.
  const marked = '[coverage \u00b7 b-1]\naaaa\n\n[coverage \u00b7 b-big]\n[OMITTED: over token budget]\n\n[memory \u00b7 b-2]\nbbbb';
  const byContext = golden({ ...FULL_EXPECT, context: String(rightAnswer().context) });

  it('passes when the context holds exactly the markers its omissions call for, judged without them', () => {
    expect(judge(byContext, result({ ...rightAnswer(), context: marked }), MARKERS)).toEqual({ status: 'pass' });
  });

  it('fails on a missing, moved or leaking marker, naming MRK-1..3', () => {
    const wrong = [
      rightAnswer().context,
      '[coverage \u00b7 b-big]\n[OMITTED: over token budget]\n\n[coverage \u00b7 b-1]\naaaa\n\n[memory \u00b7 b-2]\nbbbb',
      marked.replace('[OMITTED: over token budget]', '[OMITTED: over token budget] cccc'),
      marked + '\n\n[coverage \u00b7 b-old]\n[OMITTED: over token budget]',
    ];
    for (const context of wrong) {
      const v = judge(byContext, result({ ...rightAnswer(), context }), MARKERS);
      expect(v.status).toBe('fail');
      expect(v.message).toMatch(/^context \(the included blocks with a marker for each budget or max_segments omission, in render order: MRK-1\.\.3\)/);
    }
  });

  it('is judged as written by an implementation without the capability, and a case that lists it states its markers itself', () => {
    expect(judge(byContext, result({ ...rightAnswer(), context: marked }), CORE).status).toBe('fail');
    const listing = golden({ context: marked }, { capabilities: ['omission_markers'] });
    expect(judge(listing, result({ ...rightAnswer(), context: marked }), MARKERS)).toEqual({ status: 'pass' });
  });
});
