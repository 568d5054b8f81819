/**
 * The principles of the any level (SPEC section 18) on answers worked out by
 * hand: each answer breaks one principle, or none, under a declared design.
 */
import { describe, expect, it } from 'vitest';
import { principleFindings } from '../../judging/principles/checks.js';
import type { PrincipleRequest } from '../../judging/principles/finding.js';
import { designOf } from '../../judging/principles/design.js';
import type { Result } from '../../protocol/assembly.js';

const SPEC = designOf(undefined);
const TAGS = designOf({
  estimator: { unit: 'code_points', per_token: 4, rounding: 'ceil', min: 0 },
  render: { header: '<doc id="{block_id}">\n', footer: '\n</doc>', separator: '\n', empty: 'No relevant specifications found.' },
});

const long = (tag: string, n: number): string => `${tag}: ` + 'x'.repeat(n - tag.length - 2);
const req: PrincipleRequest = {
  now: 100,
  budget: 30,
  blocks: [
    { block_id: 'a', source: 'memory', content: long('alpha', 40) }, // 10 tokens
    { block_id: 'b', source: 'notes', content: long('bravo', 80) }, // 20 tokens
    { block_id: 'c', source: 'notes', content: long('charlie', 60) }, // 15 tokens
  ],
};
const specContext = (ids: string[]): string =>
  ids
    .map((id) => {
      const b = req.blocks.find((x) => x.block_id === id)!;
      return `[${b.source} · ${b.block_id}]\n${b.content}`;
    })
    .join('\n\n');

function result(included: string[], over: Partial<Result> = {}): Result {
  const omitted = req.blocks.filter((b) => !included.includes(b.block_id)).map((b) => ({ block_id: b.block_id, reason: 'budget' }));
  const tokens = included.reduce((n, id) => n + SPEC.cost(req.blocks.find((b) => b.block_id === id)!.content), 0);
  return { context: specContext(included), included, estimated_tokens: tokens, total_budget: req.budget, omissions: omitted, ...over };
}

const ids = (r: Result, design = SPEC, request = req, caps: string[] = []): string[] => principleFindings(request, r, design, caps).map((f) => f.id);

describe('the principles of the any level', () => {
  it('a correct answer in the specification design breaks none', () => {
    expect(ids(result(['a', 'b']))).toEqual([]);
  });

  it('a block cut to fit what is left breaks whole blocks (ANY-1)', () => {
    const cut = req.blocks[2]!.content.slice(0, 20);
    const r = result(['a', 'b'], { context: specContext(['a', 'b']) + '\n\n[notes · c]\n' + cut });
    const f = principleFindings(req, r, SPEC, []);
    expect(f.map((x) => x.id)).toEqual(['ANY-1']);
    expect(f[0]!.message).toContain('first 20 of 60 characters');
  });

  it('an included block truncated by its renderer breaks whole blocks (ANY-1)', () => {
    const b = req.blocks[1]!;
    const r = result(['a', 'b'], { context: specContext(['a']) + `\n\n[notes · b]\n${b.content.slice(0, 30)}\n// ... truncated` });
    expect(ids(r)).toEqual(['ANY-1']);
  });

  it('a budget overrun under the declared estimator breaks the budget even when estimated_tokens is inside it (ANY-2)', () => {
    const r = result(['a', 'b', 'c'], { estimated_tokens: 30 });
    const f = principleFindings(req, r, SPEC, []);
    expect(f.map((x) => x.id)).toEqual(['ANY-2']);
    // The kit's own count of each block stands beside the answer's (10 + 20 + 15 = 45 under NUM-2).
    expect(f[0]!.actual).toEqual({ measured: 45, estimated_tokens: 30, costs: { a: 10, b: 20, c: 15 } });
    expect(f[0]!.message).toBe(
      'the included blocks cost 45 under the declared estimator (floor(code_points / 4), at least 1: "a" 10, "b" 20, "c" 15) ' +
        'and the answer says 30: over the budget of 30',
    );
  });

  it('a block neither included nor omitted is a silent drop (ANY-3)', () => {
    const r = result(['a'], { omissions: [{ block_id: 'b', reason: 'budget' }] });
    expect(ids(r)).toEqual(['ANY-3']);
  });

  it('with omissions not reported, every drop is silent (ANY-3, DES-3)', () => {
    const notReported = designOf({ omissions: 'not_reported' });
    expect(ids(result(['a', 'b']), notReported)).toEqual(['ANY-3']);
    expect(ids({ ...result(['a', 'b', 'c']), total_budget: 100 }, notReported, { ...req, budget: 100 })).toEqual([]);
  });

  it('a named duplicate, source cap or score floor drop is legal, an unnamed reason is not (ANY-4)', () => {
    const named = result(['a'], {
      omissions: [
        { block_id: 'b', reason: 'duplicate' },
        { block_id: 'c', reason: 'source_cap' },
      ],
    });
    expect(ids(named)).toEqual([]);
    expect(
      ids(
        result(['a'], {
          omissions: [
            { block_id: 'b', reason: 'score_floor' },
            { block_id: 'c', reason: 'too_similar' },
          ],
        }),
      ),
    ).toEqual(['ANY-4']);
  });

  it('an expired block included breaks expiry (ANY-5); at its boundary it is live', () => {
    const expiring: PrincipleRequest = { ...req, blocks: [{ ...req.blocks[0]!, created_at: 50, ttl_seconds: 49 }, req.blocks[1]!, req.blocks[2]!] };
    expect(ids(result(['a']), SPEC, expiring)).toEqual(['ANY-5']);
    const boundary: PrincipleRequest = { ...req, blocks: [{ ...req.blocks[0]!, created_at: 50, ttl_seconds: 50 }, req.blocks[1]!, req.blocks[2]!] };
    expect(ids(result(['a']), SPEC, boundary)).toEqual([]);
  });

  it('a pinned block omitted breaks pinned (ANY-6) when pinned is declared, and is not judged otherwise', () => {
    const pinned: PrincipleRequest = { ...req, blocks: [req.blocks[0]!, req.blocks[1]!, { ...req.blocks[2]!, pinned: true }] };
    expect(ids(result(['a', 'b']), SPEC, pinned, ['pinned'])).toEqual(['ANY-6']);
    expect(ids(result(['a', 'b']), SPEC, pinned, [])).toEqual([]);
  });

  it('a pinned block omitted by a filter the request asks for is no silent drop (PIN-5): exclude, or its own lifecycle status, each only where its capability is declared', () => {
    const omit = (reason: string): Result => ({ ...result(['a', 'b']), omissions: [{ block_id: 'c', reason }] });
    const excluded: PrincipleRequest = {
      ...req,
      blocks: [req.blocks[0]!, req.blocks[1]!, { ...req.blocks[2]!, pinned: true }],
      constraints: { exclude: ['c'] },
    };
    expect(ids(omit('excluded'), SPEC, excluded, ['pinned', 'constraints'])).toEqual([]);
    expect(ids(omit('excluded'), SPEC, excluded, ['pinned'])).toEqual(['ANY-6']);
    // Omitted as excluded when the request does not exclude it: a pinned rule dropped under a reason that is not true.
    expect(ids(omit('excluded'), SPEC, { ...excluded, constraints: { exclude: ['a'] } }, ['pinned', 'constraints'])).toEqual(['ANY-6']);
    const superseded: PrincipleRequest = { ...req, blocks: [req.blocks[0]!, req.blocks[1]!, { ...req.blocks[2]!, pinned: true, status: 'superseded' }] };
    expect(ids(omit('superseded'), SPEC, superseded, ['pinned', 'lifecycle'])).toEqual([]);
    expect(ids(omit('disputed'), SPEC, superseded, ['pinned', 'lifecycle'])).toEqual(['ANY-6']);
    expect(ids(omit('superseded'), SPEC, superseded, ['pinned'])).toEqual(['ANY-6']);
  });

  it('content not under its own header breaks provenance (ANY-10)', () => {
    const r = result(['a', 'b'], { context: specContext(['a']) + `\n\n[notes · zz]\n${req.blocks[1]!.content}` });
    expect(ids(r)).toEqual(['ANY-10']);
  });

  it('a preamble breaks nothing invented (ANY-11); so does an undeclared placeholder for an empty context', () => {
    expect(ids(result(['a', 'b'], { context: 'Use these notes:\n' + specContext(['a', 'b']) }))).toEqual(['ANY-11']);
    const none = result([], { context: 'No relevant specifications found.', estimated_tokens: 0 });
    expect(ids(none)).toEqual(['ANY-11']);
  });

  it('a declared render and placeholder are read as the implementation writes them', () => {
    const tagged = (idsIn: string[]): string => idsIn.map((id) => `<doc id="${id}">\n${req.blocks.find((b) => b.block_id === id)!.content}\n</doc>`).join('\n');
    expect(ids(result(['a', 'b'], { context: tagged(['a', 'b']) }), TAGS)).toEqual([]);
    expect(ids(result([], { context: 'No relevant specifications found.', estimated_tokens: 0 }), TAGS)).toEqual([]);
    // ceil(80/4) = 20 and ceil(60/4) = 15: b and c together are over 30 under this estimator as under the spec's.
    expect(ids(result(['b', 'c'], { context: tagged(['b', 'c']), estimated_tokens: 30 }), TAGS)).toEqual(['ANY-2']);
  });

  it('an estimator with overhead per block counts it (DES-1)', () => {
    const overhead = designOf({ estimator: { unit: 'code_points', per_token: 4, overhead: 5 } });
    expect(overhead.cost('x'.repeat(40))).toBe(15);
    expect(ids(result(['a', 'b'], { estimated_tokens: 30 }), overhead)).toEqual(['ANY-2']);
  });

  it('units count as declared: UTF-16 units, UTF-8 bytes, words', () => {
    expect(designOf({ estimator: { unit: 'utf16', per_token: 1 } }).cost('\u{1f600}')).toBe(2);
    expect(designOf({ estimator: { unit: 'utf8_bytes', per_token: 1 } }).cost('\u00e9')).toBe(2);
    expect(designOf({ estimator: { unit: 'words', per_token: 1, min: 0 } }).cost(' one  two\nthree ')).toBe(3);
    expect(designOf({ estimator: { unit: 'code_points', per_token: 4, rounding: 'ceil', min: 0 } }).cost('')).toBe(0);
  });
});
