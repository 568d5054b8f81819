/**
 * A block that fits is not dropped for the budget (SPEC ANY-14) and the
 * declared context order holds (ANY-15), on answers worked out by hand: a
 * chat history of four messages of 10 tokens each under NUM-2's estimate.
 */
import { describe, expect, it } from 'vitest';
import { principleFindings } from '../../judging/principles/checks.js';
import type { PrincipleRequest } from '../../judging/principles/finding.js';
import { designOf } from '../../judging/principles/design.js';
import type { DeclaredDesign } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';

const msg = (id: string, at: number, extra: Record<string, unknown> = {}) => ({
  block_id: id,
  source: 'chat',
  content: `${id}: `.padEnd(40, 'x'),
  priority: 1,
  created_at: at,
  ...extra,
});
const req: PrincipleRequest = { now: 1000, budget: 25, blocks: [msg('m1', 100), msg('m2', 200), msg('m3', 300), msg('m4', 400)] };
const render = (ids: string[]): string => ids.map((id) => `[chat · ${id}]\n${req.blocks.find((b) => b.block_id === id)!.content}`).join('\n\n');
const answer = (included: string[], budget = req.budget): Result => ({
  context: render(included),
  included,
  estimated_tokens: included.length * 10,
  total_budget: budget,
  omissions: req.blocks.filter((b) => !included.includes(b.block_id)).map((b) => ({ block_id: b.block_id, reason: 'budget' })),
});
const CHAT: DeclaredDesign = { fill: { order: 'newest_first', misfit: 'stop' }, context_order: { by: 'chronological' } };
const found = (r: Result, declared: DeclaredDesign | undefined, request = req) => principleFindings(request, r, designOf(declared), []);

describe('a declared fill (DES-7, ANY-14)', () => {
  it('the newest that fit, oldest first in the context: nothing to say', () => {
    expect(found(answer(['m3', 'm4']), CHAT)).toEqual([]);
  });

  it('the oldest kept where the newest are declared: taken from the other end', () => {
    const f = found(answer(['m1', 'm2']), CHAT);
    expect(f.map((x) => x.id)).toEqual(['ANY-14']);
    expect(f[0]!.message).toMatch(
      /^the blocks are taken from the other end \(oldest first, where the design declares newest first\): "m3", "m4" fit and are omitted for the budget/,
    );
  });

  it('a block that fits dropped: named, with what the fill takes', () => {
    const f = found(answer(['m4']), CHAT);
    expect(f.map((x) => x.id)).toEqual(['ANY-14']);
    expect(f[0]!.message).toContain('"m3" fits and is omitted for the budget');
    expect(f[0]!.expected).toEqual(['m4', 'm3']);
  });

  it('stop and skip differ at a misfit: a small older block is taken only by skip', () => {
    const small = { ...req, blocks: [msg('m1', 100, { content: 'tiny' }), msg('m2', 200), msg('m3', 300), msg('m4', 400)] };
    const r: Result = { ...answer(['m3', 'm4']), context: `[chat · m3]\n${small.blocks[2]!.content}\n\n[chat · m4]\n${small.blocks[3]!.content}` };
    expect(found(r, CHAT, small)).toEqual([]);
    const skip = found(r, { ...CHAT, fill: { order: 'newest_first', misfit: 'skip' } }, small);
    expect(skip.map((x) => x.id)).toEqual(['ANY-14']);
    expect(skip[0]!.message).toContain('"m1" fits and is omitted for the budget');
  });

  it('a block dropped for another reason is not the fill’s: a duplicate is judged elsewhere', () => {
    const r: Result = {
      ...answer(['m4']),
      omissions: [msg('m1', 0), msg('m2', 0), msg('m3', 0)].map((b) => ({ block_id: b.block_id, reason: b.block_id === 'm3' ? 'duplicate' : 'budget' })),
    };
    expect(found(r, { fill: { order: 'newest_first', misfit: 'stop' } }).map((x) => x.id)).toEqual(['ANY-14']);
    // m3 a duplicate: newest first, m4 then m2 fit (m1 does not): the answer keeps only m4.
    expect(found(r, { fill: { order: 'newest_first', misfit: 'stop' } })[0]!.message).toContain('"m2" fits');
  });
});

describe('without a declared fill, what every design owes (ANY-14)', () => {
  it('when every block fits, none is dropped for the budget', () => {
    const roomy = { ...req, budget: 40 };
    const f = found(answer(['m1', 'm2', 'm4'], 40), undefined, roomy);
    expect(f.map((x) => x.id)).toEqual(['ANY-14']);
    expect(f[0]!.message).toMatch(
      /^every live block fits \(together they cost 40 of 40 under floor\(code_points \/ 4\), at least 1\), yet "m3" is omitted for the budget/,
    );
  });

  it('when they do not all fit, any drop for the budget is the design’s', () => {
    expect(found(answer(['m1']), undefined)).toEqual([]);
  });
});

describe('a declared context order (DES-8, ANY-15)', () => {
  it('a history written back to front', () => {
    const r: Result = { ...answer(['m4', 'm3']), context: render(['m4', 'm3']) };
    const f = found(r, CHAT);
    expect(f.map((x) => x.id)).toEqual(['ANY-15']);
    expect(f[0]!.message).toBe('the blocks are written back to front: included lists "m4", "m3", where the declared order (oldest first) is "m3", "m4"');
  });

  it('pinned first, then by time', () => {
    const pinned = { ...req, budget: 30, blocks: [msg('m1', 100), msg('m2', 200), msg('rule', 900, { pinned: true })] };
    const order = { context_order: { by: 'chronological', pinned_first: true } } as const;
    const ok: Result = { context: '', included: ['rule', 'm1', 'm2'], estimated_tokens: 30, total_budget: 30, omissions: [] };
    const context = (ids: string[]) => ids.map((id) => `[chat · ${id}]\n${pinned.blocks.find((b) => b.block_id === id)!.content}`).join('\n\n');
    expect(principleFindings(pinned, { ...ok, context: context(ok.included) }, designOf(order), ['pinned'])).toEqual([]);
    const late = ['m1', 'm2', 'rule'];
    expect(principleFindings(pinned, { ...ok, included: late, context: context(late) }, designOf(order), ['pinned']).map((x) => x.id)).toEqual(['ANY-15']);
  });

  it('not judged without a declared order', () => {
    const r: Result = { ...answer(['m4', 'm3']), context: render(['m4', 'm3']) };
    expect(found(r, { fill: CHAT.fill! })).toEqual([]);
  });
});

describe('a declared fill names its ties, its whole levels and what it counts (DES-7, DES-1)', () => {
  // Five blocks of 10 tokens each under NUM-2: two at priority 3, three at priority 1.
  const doc = (id: string, priority: number) => ({ block_id: id, source: 'kb', content: `${id}: `.padEnd(40, 'x'), priority });
  const ranked: PrincipleRequest = { now: 0, budget: 30, blocks: [doc('d-4', 3), doc('d-1', 3), doc('d-5', 1), doc('d-2', 1), doc('d-3', 1)] };
  const of = (ids: string[], budget = ranked.budget): Result => ({
    context: ids.map((id) => `[kb · ${id}]\n${ranked.blocks.find((b) => b.block_id === id)!.content}`).join('\n\n'),
    included: ids,
    estimated_tokens: ids.length * 10,
    total_budget: budget,
    omissions: ranked.blocks.filter((b) => !ids.includes(b.block_id)).map((b) => ({ block_id: b.block_id, reason: 'budget' })),
  });
  const judged = (r: Result, fill: DeclaredDesign['fill'], request = ranked) => principleFindings(request, r, designOf({ fill }), []);

  it('ties by block id, the later first, or the request order are each a design that passes when declared', () => {
    // Room for three: both at priority 3, then one of the three ties at priority 1.
    expect(judged(of(['d-4', 'd-1', 'd-2']), { order: 'priority', misfit: 'skip', ties: 'block_id' })).toEqual([]);
    expect(judged(of(['d-4', 'd-1', 'd-3']), { order: 'priority', misfit: 'skip', ties: 'later_first' })).toEqual([]);
    expect(judged(of(['d-4', 'd-1', 'd-5']), { order: 'priority', misfit: 'skip' })).toEqual([]);
  });

  it('a tie broken otherwise than declared fails ANY-14, saying the ties', () => {
    const f = judged(of(['d-4', 'd-1', 'd-5']), { order: 'priority', misfit: 'skip', ties: 'block_id' });
    expect(f.map((x) => x.id)).toEqual(['ANY-14']);
    expect(f[0]!.message).toMatch(/^ties are broken in the request’s order, where the design declares by block id: "d-2" fits and is omitted for the budget/);
    expect(f[0]!.message).toContain('costing 30 of 30 under floor(code_points / 4), at least 1 ("d-2" 10 alone); the answer\'s blocks cost 30 and it says 30');
  });

  it('whole levels: a level that does not fit whole ends the fill, and one taken block by block fails', () => {
    const cutoff = { order: 'priority', misfit: 'stop', levels: 'whole' } as const;
    expect(judged(of(['d-4', 'd-1']), cutoff)).toEqual([]);
    const split = judged(of(['d-4', 'd-1', 'd-5']), cutoff);
    expect(split.map((x) => x.id)).toEqual(['ANY-14']);
    expect(split[0]!.message).toMatch(/^a level of equal rank is taken block by block, where the design declares each level kept or dropped whole/);
    // Undeclared, a whole-level answer is read as such.
    const whole = judged(of(['d-4', 'd-1']), { order: 'priority', misfit: 'stop' });
    expect(whole[0]!.message).toMatch(/^levels of equal rank are kept or dropped whole, which the design does not declare/);
  });

  it('a block that exactly fills what is left, dropped, is read as a strict fit test', () => {
    // Three ranks, no ties: the third block exactly fills the 30 left after two.
    const distinct = { ...ranked, blocks: [doc('d-4', 3), doc('d-1', 2), doc('d-5', 1)] };
    const r = { ...of(['d-4', 'd-1']), omissions: [{ block_id: 'd-5', reason: 'budget' }] };
    const f = judged(r, { order: 'priority', misfit: 'stop' }, distinct);
    expect(f.map((x) => x.id)).toEqual(['ANY-14']);
    expect(f[0]!.message).toMatch(/^a block that exactly fills what is left is dropped \(the fit test is strict/);
  });

  it('under a count of the rendered blocks, the fill is the one the render allows', () => {
    // Each rendered block "[kb · d-N]\n" + 40 code points is 51: 12 tokens under floor(/4); three cost 36.
    const design = designOf({ estimator: { unit: 'code_points', counts: 'block' }, fill: { order: 'priority', misfit: 'skip', ties: 'block_id' } });
    const request = { ...ranked, budget: 36 };
    const r = { ...of(['d-4', 'd-1', 'd-2'], 36), estimated_tokens: 36 };
    expect(principleFindings(request, r, design, [])).toEqual([]);
    // Under the content count the same budget holds three too, but 35 holds two rendered blocks only.
    const tight = { ...request, budget: 35 };
    const over = principleFindings(tight, { ...r, total_budget: 35 }, design, []).map((x) => x.id);
    expect(over).toContain('ANY-2');
  });
});
