/**
 * A declared omission marker (SPEC DES-10): "Skipped N messages." first in the
 * context is the design's text when N is the number of blocks left out, and a
 * finding when it miscounts, when nothing was left out, or when it is missing;
 * undeclared, the same sentence is text of the implementation's own. Answers
 * worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { principleFindings } from '../../judging/principles/checks.js';
import type { PrincipleRequest } from '../../judging/principles/finding.js';
import { designOf } from '../../judging/principles/design.js';
import type { DeclaredDesign } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';

const req: PrincipleRequest = {
  now: 0,
  budget: 12,
  blocks: ['m1', 'm2', 'm3', 'm4'].map((id) => ({ block_id: id, source: 'chat', content: `${id}: `.padEnd(40, 'x') })),
};
const MARKED: DeclaredDesign = { render: { header: '', separator: '\n' }, marker: { text: 'Skipped {count} messages.', where: 'first' } };
const answer = (context: string, included: string[]): Result => ({
  context,
  included,
  estimated_tokens: 10 * included.length,
  total_budget: 12,
  omissions: req.blocks.filter((b) => !included.includes(b.block_id)).map((b) => ({ block_id: b.block_id, reason: 'budget' })),
});
const m4 = req.blocks[3]!.content;
const ids = (r: Result, d: DeclaredDesign | undefined) => principleFindings(req, r, designOf(d), []).map((f) => f.id);

describe('a declared omission marker', () => {
  it('with the right count: the design’s own text', () => {
    expect(ids(answer(`Skipped 3 messages.\n${m4}`, ['m4']), MARKED)).toEqual([]);
  });

  it('with a wrong count: nothing invented fails, saying the count', () => {
    const f = principleFindings(req, answer(`Skipped 2 messages.\n${m4}`, ['m4']), designOf(MARKED), []);
    expect(f.map((x) => x.id)).toEqual(['ANY-11']);
    expect(f[0]!.message).toBe('the omission marker says 2 where 3 blocks are left out: "Skipped 2 messages."');
  });

  it('missing where blocks were left out, and written where none were', () => {
    expect(ids(answer(m4, ['m4']), MARKED)).toEqual(['ANY-11']);
    const all = { ...req, budget: 100 };
    const every = req.blocks.map((b) => b.content).join('\n');
    expect(
      principleFindings(all, { ...answer(`Skipped 0 messages.\n${every}`, ['m1', 'm2', 'm3', 'm4']), total_budget: 100 }, designOf(MARKED), []).map(
        (x) => x.id,
      ),
    ).toEqual(['ANY-11']);
  });

  it('with ids: the ids left out, in any order', () => {
    const byIds: DeclaredDesign = { ...MARKED, marker: { text: 'Not shown: {ids}.', where: 'last' } };
    expect(ids(answer(`${m4}\nNot shown: m2, m1, m3.`, ['m4']), byIds)).toEqual([]);
    expect(ids(answer(`${m4}\nNot shown: m1, m2.`, ['m4']), byIds)).toEqual(['ANY-11']);
  });

  it('undeclared, the same sentence is text of the implementation’s own', () => {
    expect(ids(answer(`Skipped 3 messages.\n${m4}`, ['m4']), { render: MARKED.render! })).toEqual(['ANY-11']);
  });
});

describe('a marker after the pinned blocks (DES-10 after_pinned): a head-and-tail trimmer', () => {
  const sys = { block_id: 'sys', source: 'system', content: 'You answer in English.', pinned: true };
  const headed: PrincipleRequest = { ...req, budget: 20, blocks: [sys, ...req.blocks] };
  const HEAD_TAIL: DeclaredDesign = { render: { header: '', separator: '\n' }, marker: { text: 'Skipped {count} messages.', where: 'after_pinned' } };
  const of = (context: string, included: string[]): Result => ({
    ...answer(context, included),
    total_budget: 20,
    omissions: headed.blocks.filter((b) => !included.includes(b.block_id)).map((b) => ({ block_id: b.block_id, reason: 'budget' })),
  });
  const judged = (r: Result) => principleFindings(headed, r, designOf(HEAD_TAIL), ['pinned']);

  it('stands between the kept head and the kept tail', () => {
    expect(judged(of(`${sys.content}\nSkipped 3 messages.\n${m4}`, ['sys', 'm4']))).toEqual([]);
  });

  it('first when no pinned block leads, and a miscount or a marker elsewhere is ANY-11', () => {
    expect(principleFindings(req, answer(`Skipped 3 messages.\n${m4}`, ['m4']), designOf(HEAD_TAIL), [])).toEqual([]);
    expect(judged(of(`${sys.content}\nSkipped 2 messages.\n${m4}`, ['sys', 'm4'])).map((f) => f.message)).toEqual([
      'the omission marker says 2 where 3 blocks are left out: "Skipped 2 messages."',
    ]);
    const last = judged(of(`${sys.content}\n${m4}\nSkipped 3 messages.`, ['sys', 'm4']));
    expect(last[0]!.message).toBe('3 blocks are left out and the declared omission marker is not right after the pinned blocks in the context');
  });
});
