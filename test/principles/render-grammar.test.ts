/**
 * The render and estimator grammar of a declared design (SPEC DES-1, DES-2,
 * DES-5): templates of the block's own fields with formats, choices by a
 * member, the selection's cost with fractional, per-context and joined
 * counting, and what the principles make of a render that names no block
 * (ANY-10 not judged, a wrong role header still not the declared render).
 * Every expected text below is worked out from the SPEC's words.
 */
import { describe, expect, it } from 'vitest';
import { principleFindings } from '../../judging/principles/checks.js';
import type { PrincipleRequest } from '../../judging/principles/finding.js';
import { designOf, designProblems } from '../../judging/principles/design.js';
import { withMembers } from '../../judging/principles/members.js';
import { compileTemplate, lineCount, principlesNotJudged, provenanceScope } from '../../protocol/render-template.js';
import type { DeclaredDesign, Manifest } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';

const block = (over: Record<string, unknown> = {}) => ({ block_id: 'b-7', source: 'kb', content: 'one\ntwo\nthree', priority: 0.875, ...over });

function render(t: Parameters<typeof compileTemplate>[0], b = block(), index = 1, members: string[] = []): string {
  const c = compileTemplate(t, members, 'design.render.header');
  if (Array.isArray(c)) throw new Error(c.join('; '));
  return c.render(b, index);
}

describe('templates of the block’s own fields (DES-2)', () => {
  it('writes a score with fixed decimals, the line span and the place', () => {
    expect(render('#{index} [{block_id}] Relevance: {priority:.2f} (lines 1-{lines})\n')).toBe('#1 [b-7] Relevance: 0.88 (lines 1-3)\n');
    expect(render('{priority:.0f}|{priority}', block({ priority: 3 }))).toBe('3|3');
  });

  it('counts lines as one more than the line feeds', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb\nc')]).toEqual([1, 1, 2, 3]);
  });

  it('changes the case of a declared member and writes an absent one as nothing', () => {
    expect(render('[{kind:upper}] ', block({ kind: 'knowledge' }), 1, ['kind'])).toBe('[KNOWLEDGE] ');
    expect(render('[{kind:upper}] ', block(), 1, ['kind'])).toBe('[] ');
    expect(render('{status}{confidence}', block())).toBe('');
  });

  it('writes doubled braces as one and leaves other braces as they are', () => {
    expect(render('{{block_id}} {block_id} { x } }', block())).toBe('{block_id} b-7 { x } }');
  });

  it('chooses a header by pinned, then by a declared role', () => {
    const chat = { by: 'pinned', cases: { true: 'System: ' }, default: { by: 'role', cases: { user: 'Human: ', assistant: 'AI: ' }, default: 'Human: ' } };
    expect(render(chat, block({ pinned: true, role: 'assistant' }), 1, ['role'])).toBe('System: ');
    expect(render(chat, block({ role: 'assistant' }), 1, ['role'])).toBe('AI: ');
    expect(render(chat, block({ role: 'user' }), 1, ['role'])).toBe('Human: ');
    expect(render(chat, block({ role: 'tool' }), 1, ['role'])).toBe('Human: ');
    expect(render({ by: 'pinned', cases: { true: '[PINNED] ' } }, block())).toBe('');
  });

  it('refuses a field, a format or a chooser it cannot read, naming the member path', () => {
    const problems = (t: Parameters<typeof compileTemplate>[0]) => compileTemplate(t, [], 'design.render.header') as string[];
    expect(problems('{kind}')).toEqual([expect.stringMatching(/^design\.render\.header: \{kind\} names no field of a block.*design\.members/)]);
    expect(problems('{priority:%.2f}')).toEqual([expect.stringMatching(/^design\.render\.header: .*the formats are \.Nf/)]);
    expect(problems({ by: 'role', cases: { user: '{nope}' } })).toEqual([
      expect.stringMatching(/^design\.render\.header\.by: a choice is made by pinned, source, status, not "role"/),
      expect.stringMatching(/^design\.render\.header\.cases\.user: \{nope\}/),
    ]);
  });

  it('says whether a render names its blocks whatever choice it takes', () => {
    const names = (t: Parameters<typeof compileTemplate>[0]) => (compileTemplate(t, ['role'], 'h') as { namesBlock: boolean }).namesBlock;
    expect(names('[{block_id}]\n')).toBe(true);
    expect(names('Spec {index}:\n')).toBe(true);
    expect(names('[{source}]\n')).toBe(false);
    expect(names({ by: 'pinned', cases: { true: '[PINNED] {block_id}\n' }, default: '{block_id}\n' })).toBe(true);
    expect(names({ by: 'pinned', cases: { true: '[PINNED]\n' }, default: '{block_id}\n' })).toBe(false);
  });
});

describe('a manifest’s render and members are checked before a run (DES-2, DES-5)', () => {
  const manifest = (design: DeclaredDesign): Manifest => ({ name: 'x', version: '1', profiles: ['any'], capabilities: [], design });
  it('names a template problem and a member of section 2 declared again', () => {
    expect(designProblems(manifest({ render: { footer: '{role}' } }))).toEqual([expect.stringMatching(/^design\.render\.footer: \{role\}/)]);
    expect(designProblems(manifest({ members: { role: ['user'] }, render: { footer: '{role}' } }))).toEqual([]);
    expect(designProblems(manifest({ members: { priority: ['high'] } }))).toEqual([expect.stringMatching(/^design\.members\.priority: a member of section 2/)]);
  });

  it('says provenance is not judged for a render that names no block, and only then', () => {
    expect(principlesNotJudged(undefined)).toEqual([]);
    expect(principlesNotJudged({ render: { header: '', separator: '\n\n' } })).toEqual([expect.objectContaining({ principle: 'ANY-10', name: 'provenance' })]);
    expect(principlesNotJudged({ render: { header: '', footer: ' <!-- {block_id} -->' } })).toEqual([]);
    expect(principlesNotJudged({ render: { separator: '\n---\n' } })).toEqual([]);
  });
});

describe('declared members on the requests the kit sends (DES-5)', () => {
  it('gives the block at place i the (i mod n)-th value, keeping one a block already carries', () => {
    const sent = withMembers(
      { now: 0, budget: 9, blocks: [block(), block({ block_id: 'x' }), block({ block_id: 'y', role: 'tool' })] },
      { role: ['user', 'assistant'] },
    );
    expect(sent.blocks.map((b: Record<string, unknown>) => b.role)).toEqual(['user', 'assistant', 'tool']);
    const plain = { now: 0, budget: 9, blocks: [block()] };
    expect(withMembers(plain, {})).toBe(plain);
  });
});

describe('the cost of a selection (DES-1)', () => {
  const bs = (...contents: string[]) => contents.map((content, i) => ({ block_id: `b-${i + 1}`, source: 'kb', content }));

  it('charges a fractional overhead per block and a context overhead once, unrounded', () => {
    const d = designOf({ estimator: { unit: 'code_points', per_token: 4, rounding: 'ceil', min: 0, overhead: 3.8, context_overhead: 24 } });
    expect(d.costOf([])).toBe(0);
    expect(d.costOf(bs('abcd'))).toBeCloseTo(1 + 3.8 + 24, 12);
    expect(d.costOf(bs('abcd', 'abcdefgh'))).toBeCloseTo(1 + 2 + 2 * 3.8 + 24, 12);
    expect(d.estimator).toBe('ceil(code_points / 4), at least 0, + 3.8 per block, + 24 per context');
  });

  it('counts joined contents once', () => {
    const d = designOf({ estimator: { unit: 'words', per_token: 1, min: 0, join: ' ', overhead: 1 } });
    // "ab" + " " + "cd" is 2 words; apart, "ab" and "cd" are too, but "a" + "" + "b" joined by "" is "ab", one word.
    expect(d.costOf(bs('ab', 'cd'))).toBe(2 + 2);
    const glued = designOf({ estimator: { unit: 'words', per_token: 1, min: 0, join: '' } });
    expect(glued.costOf(bs('a', 'b'))).toBe(1);
    expect(glued.cost('a') + glued.cost('b')).toBe(2);
  });

  it('counts what the design counts: each rendered block, with the separator after it, or the rendered context (counts)', () => {
    const render = { header: '### {source} ({block_id})\n', separator: '\n\n' };
    const units = { unit: 'code_points' as const, per_token: 1, min: 0 as const };
    // "### kb (b-1)\n" is 13 code points; "abcd" 4; the separator 2.
    const block = designOf({ estimator: { ...units, counts: 'block' }, render });
    expect(block.costsOf(bs('abcd', 'ef'))).toEqual([17, 15]);
    expect(block.costOf(bs('abcd', 'ef'))).toBe(32);
    expect(block.estimator).toBe('floor(code_points / 1), at least 0 of each rendered block (header, content, footer)');
    const withSeparator = designOf({ estimator: { ...units, counts: 'block_and_separator' }, render });
    expect(withSeparator.costOf(bs('abcd', 'ef'))).toBe(19 + 17);
    const context = designOf({ estimator: { ...units, counts: 'context', overhead: 1 }, render });
    expect(context.costsOf(bs('abcd'))).toBeUndefined();
    expect(context.costOf(bs('abcd', 'ef'))).toBe(17 + 2 + 15 + 2);
    // The {index} a header writes is the block's place in the selection counted.
    const indexed = designOf({ estimator: { ...units, counts: 'block' }, render: { header: '{index}. ' } });
    expect(indexed.costsOf(bs('a', 'b'))).toEqual([4, 4]);
  });

  it('writes an empty content as its header alone, or as nothing, when the design says so (empty_content)', () => {
    const render = { header: '# {source}\n', footer: '\n--', separator: '\n\n' };
    expect(designOf({ render }).pieces(bs('a', ''))).toEqual(['# kb\na\n--', '# kb\n\n--']);
    expect(designOf({ render: { ...render, empty_content: 'header' } }).pieces(bs('a', ''))).toEqual(['# kb\na\n--', '# kb\n']);
    const nothing = designOf({ estimator: { unit: 'code_points', per_token: 1, min: 0, counts: 'context' }, render: { ...render, empty_content: 'nothing' } });
    expect(nothing.pieces(bs('', 'a', ''))).toEqual(['# kb\na\n--']);
    expect(nothing.costOf(bs('', 'a', ''))).toBe(9);
  });
});

describe('the principles under the grammar', () => {
  const chat = designOf({
    members: { role: ['user', 'assistant'] },
    estimator: { unit: 'code_points', per_token: 4, rounding: 'ceil', min: 0, overhead: 3.8, context_overhead: 24 },
    render: {
      header: { by: 'pinned', cases: { true: 'System: ' }, default: { by: 'role', cases: { assistant: 'AI: ' }, default: 'Human: ' } },
      separator: '\n',
    },
  });
  const req: PrincipleRequest = {
    now: 0,
    budget: 40,
    blocks: [
      { block_id: 'rule', source: 'policy', content: 'Answer in English.', pinned: true },
      { block_id: 'q', source: 'chat', content: 'Where is the deploy key?', role: 'user' },
      { block_id: 'a', source: 'chat', content: 'In the vault, rotated on Friday.', role: 'assistant' },
    ],
  };
  // 18, 24 and 32 code points: 5 + 6 + 8 tokens, + 3 * 3.8, + 24 = 62.4 for all; rule and q: 5 + 6 + 7.6 + 24 = 42.6.
  const answer = (included: string[], context: string, budget = req.budget): Result => ({
    context,
    included,
    estimated_tokens: 0,
    total_budget: budget,
    omissions: req.blocks.filter((b) => !included.includes(b.block_id)).map((b) => ({ block_id: b.block_id, reason: 'budget' })),
  });
  const ids = (r: Result, request = req) => principleFindings(request, r, chat, ['pinned']).map((f) => f.id);

  it('holds the fractional sum to the budget: 42.6 is over 40, 32.8 is not, 42.6 is within 43', () => {
    expect(ids(answer(['rule', 'q'], 'System: Answer in English.\nHuman: Where is the deploy key?'))).toEqual(['ANY-2']);
    expect(ids(answer(['rule'], 'System: Answer in English.'))).toEqual([]);
    expect(ids(answer(['rule', 'q'], 'System: Answer in English.\nHuman: Where is the deploy key?', 43), { ...req, budget: 43 })).toEqual([]);
  });

  it('reads a wrong role header as text that is not the declared render (ANY-11), never as provenance or a cut', () => {
    const f = principleFindings({ ...req, budget: 50 }, answer(['rule', 'q'], 'Human: Answer in English.\nHuman: Where is the deploy key?', 50), chat, [
      'pinned',
    ]);
    expect(f.map((x) => x.id)).toEqual(['ANY-11']);
    expect(f[0]!.message).toContain('not under its header "System: "');
  });

  it('under a render that names blocks, a header naming another block is provenance (ANY-10)', () => {
    const named = designOf({ render: { header: '[{block_id}] Relevance: {priority:.2f}\n', separator: '\n---\n' } });
    const r: PrincipleRequest = {
      now: 0,
      budget: 100,
      blocks: [
        { block_id: 'x', source: 's', content: 'First fact here.', priority: 0.5 },
        { block_id: 'y', source: 's', content: 'Second fact here.', priority: 0.25 },
      ],
    };
    const right = '[x] Relevance: 0.50\nFirst fact here.\n---\n[y] Relevance: 0.25\nSecond fact here.';
    const ok: Result = { context: right, included: ['x', 'y'], estimated_tokens: 0, total_budget: 100, omissions: [] };
    expect(principleFindings(r, ok, named, []).map((f) => f.id)).toEqual([]);
    const wrong = right.replace('[y] Relevance: 0.25', '[x] Relevance: 0.25');
    expect(principleFindings(r, { ...ok, context: wrong }, named, []).map((f) => f.id)).toEqual(['ANY-10']);
  });
});

describe('provenance judged block by block (ANY-10)', () => {
  const partial = { render: { header: { by: 'pinned', cases: { true: '' }, default: '### {source} ({block_id})\n' } } };

  it('a render that names some blocks is judged for them, and says for which blocks it is not', () => {
    expect(provenanceScope(partial)).toEqual({ scope: 'some', silent: ['design.render.header.cases.true'] });
    expect(principlesNotJudged(partial)).toEqual([
      {
        principle: 'ANY-10',
        name: 'provenance',
        reason:
          'judged for the blocks whose header or footer names them; not for the blocks that take design.render.header.cases.true, ' +
          'which write no {block_id} or {index}',
        partly: true,
      },
    ]);
    expect(provenanceScope({ render: { header: '[{source}]\n' } }).scope).toBe('none');
    expect(provenanceScope({ render: { header: { by: 'pinned', cases: { true: '[{source}]\n' } } } }).scope).toBe('none');
  });

  it('a content under the wrong header is ANY-10 for a named block and ANY-11 for one whose header names none', () => {
    const design = designOf(partial);
    const request = {
      now: 0,
      budget: 100,
      blocks: [
        { block_id: 'sys', source: 'rules', content: 'Always answer in English.', pinned: true },
        { block_id: 'm-1', source: 'memory', content: 'The user prefers short answers.' },
      ],
    };
    const answer = (context: string) => ({ context, included: ['sys', 'm-1'], estimated_tokens: 13, total_budget: 100, omissions: [] });
    const right = 'Always answer in English.\n\n### memory (m-1)\nThe user prefers short answers.';
    expect(principleFindings(request, answer(right), design, ['pinned'])).toEqual([]);
    const wrongNamed = 'Always answer in English.\n\n### memory (m-9)\nThe user prefers short answers.';
    expect(principleFindings(request, answer(wrongNamed), design, ['pinned']).map((f) => f.id)).toEqual(['ANY-10']);
    const wrongPinned = '### rules (sys)\nAlways answer in English.\n\n### memory (m-1)\nThe user prefers short answers.';
    expect(principleFindings(request, answer(wrongPinned), design, ['pinned']).map((f) => f.id)).toEqual(['ANY-11']);
  });
});
