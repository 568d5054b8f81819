/**
 * An interrupted sweep says how far it got and claims nothing past it
 * (traffic/sweep.ts, report/sweep-text.ts): the budgets answered
 * before the signal are counted (`budgets.swept`), both sides of the
 * inclusion table stop there, so no block is marked as differing for want of
 * an answer, and no writer says the implementation agrees at every budget.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { sweepTable } from '../../cli/sweep.js';
import { sweep } from '../../traffic/sweep.js';
import type { Report } from '../../protocol/types.js';
import { assemble, describe as referenceDescribe } from '../../reference/index.js';
import { renderHtml } from '../../report/html.js';
import { renderMarkdown } from '../../report/markdown.js';

const manifest = { ...referenceDescribe(), capabilities: [] };
const request = {
  now: 10,
  budget: 0,
  blocks: ['a', 'b', 'c', 'd'].map((id, i) => ({ block_id: id, source: 'memory', content: `the content of block ${id} `.repeat(i + 1), priority: i })),
};
const BUDGETS = { from: 0, to: 199, step: 1 };

/** The reference (or `answer`), which aborts the sweep once it has answered `n` budgets. */
function abortingAfter(n: number, controller: AbortController, answer: (r: unknown) => Answer = (r) => assemble(r, { capabilities: [] })) {
  let calls = 0;
  return fromFunctions(
    (r) => {
      if (++calls === n) controller.abort('SIGINT');
      return answer(r);
    },
    () => manifest,
  );
}

type Answer = ReturnType<typeof assemble>;

async function interruptedSweep(n: number, answer?: (r: unknown) => Answer): Promise<Report> {
  const controller = new AbortController();
  return sweep({
    request,
    source: 's',
    impl: abortingAfter(n, controller, answer),
    manifest,
    timeoutMs: 10_000,
    concurrency: 1,
    budgets: BUDGETS,
    shrink: false,
    signal: controller.signal,
  });
}

describe('an interrupted sweep', () => {
  it('agreeing so far: says how many budgets it swept, marks no block as differing, and claims no agreement past them', async () => {
    const r = await interruptedSweep(60);
    const info = r.sweep!;
    // The answer that came with the signal is not kept.
    expect(info.budgets).toEqual({ ...BUDGETS, count: 200, swept: 59 });
    expect(r.cases[0]).toMatchObject({
      status: 'skip',
      message: 'swept 59 of 200 budgets before the interrupt (SIGINT): no disagreement among them; nothing is known of the other 141',
    });
    for (const b of info.blocks) expect(b.implementation, b.block_id).toEqual(b.reference);
    // Nothing is said of the budgets after the 59th, not even the reference's side.
    for (const b of info.blocks) for (const [, to] of b.reference) expect(to).toBeLessThanOrEqual(58);
    expect(info.admits_all_from).toBeNull();

    const table = sweepTable(info);
    expect(table).toContain('(59 of 200 budgets swept before the interrupt)');
    expect(table).not.toContain('<- differs');
    expect(table).not.toContain('every swept budget');
    expect(table).toMatch(/interrupted after 59 of 200 budgets: no disagreement among them; nothing is known of the other 141$/);
    for (const text of [renderHtml(r), renderMarkdown(r)]) {
      expect(text).toContain('nothing is known of the other 141');
      expect(text).not.toMatch(/agrees with the reference at every/i);
    }
  });

  it('disagreeing: the count of disagreeing budgets is of those swept, and the others are said to be unknown', async () => {
    // From budget 20 on, the answer leaves every block out.
    const r = await interruptedSweep(40, (x) => {
      const a = assemble(x, { capabilities: [] });
      return 'total_budget' in a && a.total_budget >= 20 ? { ...a, context: '', included: [], estimated_tokens: 0 } : a;
    });
    const info = r.sweep!;
    expect(info.budgets.swept).toBe(39);
    expect(info.first_disagreement).not.toBeNull();
    expect(r.cases[0]!.message).toMatch(
      new RegExp(
        `^first disagreement at budget ${info.first_disagreement}; \\d+ of 39 swept budgets disagree \\([^)]*\\); ` +
          `swept 39 of 200 budgets before the interrupt \\(SIGINT\\): nothing is known of the others\\n`,
      ),
    );
    expect(sweepTable(info)).toMatch(
      /interrupted after 39 of 200 budgets: among them the first disagreement is at budget \d+, .*; nothing is known of the other 161$/,
    );
  });

  it('not interrupted: every budget counted as swept, no `swept` member, and agreement said as before', async () => {
    const r = await sweep({
      request,
      source: 's',
      impl: abortingAfter(Infinity, new AbortController()),
      manifest,
      timeoutMs: 10_000,
      concurrency: 1,
      budgets: BUDGETS,
      shrink: false,
    });
    expect(r.sweep!.budgets).toEqual({ ...BUDGETS, count: 200 });
    expect(sweepTable(r.sweep!)).toContain('(200 budgets swept)');
    expect(sweepTable(r.sweep!)).toMatch(/the implementation agrees with the reference at every swept budget$/);
  });
});
