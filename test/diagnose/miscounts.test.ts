/**
 * Miscounts named by their cause (issue 50): an overrun's likely cause says
 * which count of the included blocks reproduces the answer's own
 * estimated_tokens, instead of only "over budget". Written from descriptions
 * of counters users reported: one that counts messages instead of tokens, one
 * that forgets a token a message.
 */
import { describe, expect, it } from 'vitest';
import { greedyManifest } from '../fixtures/other-designs/greedy.js';
import { likelyCauseOf } from './likely-cause-of.js';

type Block = { block_id: string; source: string; content: string; priority: number };

/** Greedy by priority in the greedy fixture's render; `count` is what it believes a block costs. */
const counting = (count: (b: Block) => number) => (request: unknown) => {
  const r = request as { budget: number; blocks: Block[] };
  const kept: Block[] = [];
  let used = 0;
  const omissions: { block_id: string; reason: string }[] = [];
  for (const b of [...r.blocks].sort((x, y) => y.priority - x.priority)) {
    if (used + count(b) <= r.budget) {
      kept.push(b);
      used += count(b);
    } else omissions.push({ block_id: b.block_id, reason: 'budget' });
  }
  const context = kept.map((b) => `<doc source="${b.source}" id="${b.block_id}">\n${b.content}\n</doc>`).join('\n');
  return { context, included: kept.map((b) => b.block_id), estimated_tokens: used, total_budget: r.budget, omissions };
};

async function overrunSummary(count: (b: Block) => number): Promise<string | undefined> {
  const { report } = await likelyCauseOf(counting(count), greedyManifest('miscount'));
  return report.principles?.find((p) => p.requirement === 'ANY-2')?.summary;
}

describe('an overrun says how the implementation counted', () => {
  it('messages counted instead of tokens', async () => {
    expect(await overrunSummary(() => 1)).toMatch(
      /^the budget is overrun: its estimated_tokens is the number of blocks, not their tokens, in (\d+) of the \1 overruns/,
    );
  }, 60_000);

  it('one token short a message', async () => {
    // The greedy design's declared estimator is ceil(code points / 4), empty content free.
    const ceil = (b: Block) => Math.ceil([...b.content].length / 4);
    expect(await overrunSummary((b) => Math.max(0, ceil(b) - 1))).toMatch(/its estimated_tokens is one token short a block, in \d+ of the \d+ overruns/);
  }, 60_000);
});
