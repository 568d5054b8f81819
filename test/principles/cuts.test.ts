/**
 * A cut by design (SPEC DES-12), on answers worked out by hand: a renderer
 * that keeps the head of a chunk that does not fit whole, cut at white space
 * and marked "…", is the design's; a cut inside a word, a cut of a block that
 * fits whole, or a cut whose written text overruns the budget is not.
 */
import { describe, expect, it } from 'vitest';
import { principleFindings } from '../../judging/principles/checks.js';
import type { PrincipleRequest } from '../../judging/principles/finding.js';
import { designOf } from '../../judging/principles/design.js';
import type { Result } from '../../protocol/assembly.js';

// "alpha" is 40 code points (10 tokens under NUM-2); "long" is 12 words of 6 code points and a space: 84, 21 tokens.
const long = Array.from({ length: 12 }, (_, i) => `word${String(i).padStart(2, '0')}`).join(' ') + '.';
const req: PrincipleRequest = {
  now: 0,
  budget: 20,
  blocks: [
    { block_id: 'alpha', source: 'kb', content: 'alpha '.padEnd(40, 'x'), priority: 2 },
    { block_id: 'long', source: 'kb', content: long, priority: 1 },
  ],
};
const CUTTER = designOf({ cut: { keep: 'head', at: 'whitespace', marker: '…' }, fill: { order: 'priority', misfit: 'stop' } });
const answer = (written: string, tokens: number, over: Partial<Result> = {}): Result => ({
  context: `[kb · alpha]\n${req.blocks[0]!.content}\n\n[kb · long]\n${written}`,
  included: ['alpha', 'long'],
  estimated_tokens: tokens,
  total_budget: req.budget,
  omissions: [],
  ...over,
});
const judged = (r: Result, request = req) => principleFindings(request, r, CUTTER, []);

describe('a cut the design declares (DES-12)', () => {
  it('the head kept at white space and marked, within the budget: the design’s own', () => {
    // "word00 word01 word02 word03 word04" is 34 code points, with "…" 35: 8 tokens, 18 in all.
    const head = long.slice(0, 34);
    expect(judged(answer(`${head}…`, 18))).toEqual([]);
  });

  it('a cut inside a word fails ANY-1, naming the place', () => {
    const f = judged(answer(`${long.slice(0, 31)}…`, 18));
    expect(f.map((x) => x.id)).toEqual(['ANY-1']);
    expect(f[0]!.message).toBe(
      'block "long" is cut, but not as the design declares (the head kept, cut at white space, marked "…"): ' +
        'it is cut at character 31 of 84, inside a word ("…2 word03 wor|d04 word05 w…"), where the design cuts at white space',
    );
  });

  it('another marker, or the tail kept, is not the declared cut', () => {
    expect(judged(answer(`${long.slice(0, 34)} [truncated]`, 18))[0]!.message).toContain(
      '"[truncated]" stands where the rest was, where the declared marker is "…"',
    );
    expect(judged(answer(`…${long.slice(-34)}`, 18))[0]!.message).toContain('it keeps its tail of 84 characters');
  });

  it('the written text is charged against the budget, and a block that fits whole is never cut', () => {
    // The head of 69 code points and its marker cost 17: 27 in all, over 20.
    const over = judged(answer(`${long.slice(0, 69)}…`, 20));
    expect(over.map((x) => x.id)).toEqual(['ANY-2']);
    const roomy = { ...req, budget: 40 };
    const needless = judged(answer(`${long.slice(0, 34)}…`, 18, { total_budget: 40 }), roomy);
    expect(needless.map((x) => x.message)).toEqual([
      'block "long" is cut, though it fits whole: with it whole the included blocks cost 31 of 40 under floor(code_points / 4), at least 1',
    ]);
  });

  it('undeclared, the same cut is a block not there whole (ANY-1)', () => {
    const f = principleFindings(req, answer(`${long.slice(0, 34)}…`, 18), designOf({ fill: { order: 'priority', misfit: 'stop' } }), []);
    expect(f.map((x) => x.id)).toEqual(['ANY-1']);
  });
});

describe('a cut at token boundaries (DES-12 at "token")', () => {
  const content = 'Deploys need two approvals, and the rollback key rotates on Fridays after noon.';
  const request: PrincipleRequest = { now: 0, budget: 8, blocks: [{ block_id: 'doc', source: 'kb', content, priority: 1 }] };
  const of = (written: string, tokens: number): Result => ({
    context: `[kb · doc]\n${written}`,
    included: ['doc'],
    estimated_tokens: tokens,
    total_budget: 8,
    omissions: [],
  });

  it('keeps the text of the first tokens of the declared tokenizer, and fails a cut inside a token', async () => {
    const { prepareDesign } = await import('../../judging/principles/design.js');
    const { encode, decode } = await import('gpt-tokenizer/encoding/cl100k_base');
    const design = await prepareDesign({
      profiles: ['any'],
      design: { estimator: { tokenizer: 'cl100k_base' }, cut: { keep: 'head', at: 'token', marker: '…' } },
    });
    const head = decode(encode(content).slice(0, 6));
    const cost = encode(`${head}…`).length;
    expect(cost).toBeLessThanOrEqual(8);
    expect(principleFindings(request, of(`${head}…`, cost), design, [])).toEqual([]);
    // "Deploys need two approvals," is six tokens ("Dep", "loys", " need", " two", " approvals", ","); "…approval" ends inside the fifth.
    const inside = principleFindings(request, of(`${head.slice(0, -2)}…`, cost), design, []);
    expect(inside.map((f) => f.id)).toEqual(['ANY-1']);
    expect(inside[0]!.message).toContain('is not the text of whole tokens of the declared tokenizer');
  });

  it('is refused without a tokenizer estimator, naming the member', async () => {
    const { designProblems } = await import('../../judging/principles/design.js');
    const manifest = { name: 'x', version: '1', profiles: ['any'], capabilities: [], design: { cut: { keep: 'head', at: 'token' } } } as const;
    expect(designProblems(manifest as never)).toEqual([
      'design.cut.at: a cut at token boundaries needs a tokenizer estimator (design.estimator.tokenizer), whose tokens it reads',
    ]);
  });
});

describe('a cut reported as an omission (DES-12 reason)', () => {
  const REPORTED = designOf({ cut: { keep: 'head', at: 'whitespace', marker: '…', reason: 'truncated' }, fill: { order: 'priority', misfit: 'stop' } });
  const of = (written: string | undefined, over: Partial<Result> = {}): Result => ({
    context: `[kb · alpha]\n${req.blocks[0]!.content}${written === undefined ? '' : `\n\n[kb · long]\n${written}`}`,
    included: ['alpha'],
    estimated_tokens: 18,
    total_budget: req.budget,
    omissions: [{ block_id: 'long', reason: 'truncated' }],
    ...over,
  });

  it('the cut block omitted under the declared reason, its kept head written last: the design’s own, its reason a class', () => {
    expect(principleFindings(req, of(`${long.slice(0, 34)}…`), REPORTED, [])).toEqual([]);
  });

  it('omitted as cut but written whole, or not written at all, is not what the reason says', () => {
    const whole = principleFindings(req, of(long, { estimated_tokens: 31 }), REPORTED, []);
    expect(whole.map((f) => f.message)).toContain('block "long" is omitted as cut ("truncated"), yet its content is in the context whole');
    const nowhere = principleFindings(req, of(undefined, { estimated_tokens: 10 }), REPORTED, []);
    expect(nowhere.map((f) => f.id)).toEqual(['ANY-4']);
    expect(nowhere[0]!.message).toBe('block "long" is omitted as cut ("truncated"), but no part of it stands in the context');
  });

  it('undeclared, the reason names no class (ANY-4) and the part is a piece of a dropped block (ANY-1)', () => {
    const f = principleFindings(req, of(`${long.slice(0, 34)}…`), designOf({ fill: { order: 'priority', misfit: 'stop' } }), []);
    expect(f.map((x) => x.id).sort()).toEqual(['ANY-1', 'ANY-4']);
  });
});
