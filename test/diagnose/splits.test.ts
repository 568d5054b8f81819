/**
 * Blocks that belong together, split (issue 50): the trimmers users report
 * keep a tool result without its call, or repair an orphan only at the start
 * of the history. Each, written from that description as a fixture
 * (test/fixtures/designs/tool-history.mjs), run over stdio as a vendor runs it
 * with the golden cases and the properties, gets ANY-16 as its first likely
 * cause, with the half it keeps and the model that reproduces its answers; the
 * design that keeps every exchange whole fails nothing.
 */
import { describe, expect, it } from 'vitest';
import { likelyCauseOfCommand } from './likely-cause-of.js';

const run = (plant?: string) => likelyCauseOfCommand(`node test/fixtures/designs/tool-history.mjs${plant ? ` --plant ${plant}` : ''}`, { seed: 20261207 });

describe('a tool history trimmer', () => {
  it('that keeps every exchange whole fails nothing', async () => {
    const { report, cause } = await run();
    expect(report.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => c.id)).toEqual([]);
    expect(cause).toBeUndefined();
  }, 120_000);

  it('that does not read the groups: ANY-16 first, the fill taken block by block reproducing its answers', async () => {
    const { cause } = await run('ungrouped');
    const first = cause!.report.principles![0]!;
    expect(first.requirement).toBe('ANY-16');
    expect(first.summary).toMatch(
      /^blocks that belong together are split: the later blocks of a group kept without the earlier \(a tool result without its call\) in \d+/,
    );
    expect(first.summary).toMatch(
      /; the declared fill taken block by block, the groups not read reproduces \d+ failing answers? exactly and contradicts none of the \d+ passing$/,
    );
    expect(cause!.text.split('\n').find((l) => l.includes('(ANY-')) ?? '').toContain('(ANY-16)');
  }, 120_000);

  it('that repairs orphans at the start of the history only: ANY-16 first, none of its splits at the start, the repair reproducing its answers', async () => {
    const { cause } = await run('start-repair');
    const first = cause!.report.principles![0]!;
    expect(first.requirement).toBe('ANY-16');
    expect(first.summary).toMatch(/split groups?, none of them at the start of the context; orphans repaired at the start of the history only/);
    // The history whose oldest exchange is cut (any/orphan-at-start-of-history) passed: a fill that reads no group would have split it.
    expect(first.summary).toMatch(/reproduces \d+ failing answers? exactly and contradicts none of the \d+ passing$/);
  }, 120_000);
});
