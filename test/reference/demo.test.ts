/** The demo command's builder (running/demo.ts): a bad input file is a DemoError, never a crash. */
import { describe, expect, it } from 'vitest';
import { buildDemo, DemoError } from '../../running/demo.js';
import type { DemoInput } from '../../running/demo.js';

const bad = (input: unknown): DemoInput => input as DemoInput;

describe('buildDemo', () => {
  it.each([
    ['a null input', null, /budgets/],
    ['one budget', { now: 1, budgets: [10], blocks: [] }, /budgets/],
    ['no blocks', { now: 1, budgets: [10, 5] }, /\/blocks: required member "blocks" is missing/],
    ['a null block', { now: 1, budgets: [10, 5], blocks: [null] }, /\/blocks\/0: each block must be an object/],
    ['a fractional budget', { now: 1, budgets: [10.5, 5], blocks: [] }, /large budget \(10\.5\): \/budget/],
  ])('refuses %s with a DemoError naming the problem', (_, input, message) => {
    expect(() => buildDemo(bad(input))).toThrow(DemoError);
    expect(() => buildDemo(bad(input))).toThrow(message);
  });

  it('lists each block with its tier and cost, and assembles it at both budgets', () => {
    const out = buildDemo({ now: 1, budgets: [400, 1], blocks: [{ block_id: 'b', source: 'memory', content: 'x'.repeat(40), priority: 2 }] });
    expect(out.blocks).toEqual([{ block_id: 'b', priority: 2, source: 'memory', tier: 'longterm', token_estimate: 10, ttl_seconds: 0 }]);
    expect([out.large_budget.included, out.small_budget.included]).toEqual([['b'], []]);
    expect(Object.keys(out)).toEqual(['blocks', 'large_budget', 'schema', 'small_budget']);
  });
});
