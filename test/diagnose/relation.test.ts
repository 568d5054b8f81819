/**
 * A principle of two requests (ANY-7: a twin request, its contents rotated at
 * the same cost, selects the same blocks) is broken by neither answer alone.
 * An assembler that boosts a block for the word "urgent"
 * (test/fixtures/designs/keyword-boost.mjs, written from that description)
 * fails only the content-blindness property, and the likely cause names ANY-7
 * first, from the property's relation, instead of "none of the known defects".
 */
import { describe, expect, it } from 'vitest';
import { likelyCauseOfCommand } from './likely-cause-of.js';

describe('a broken relation between two answers', () => {
  it('is named by the principle of the property that found it', async () => {
    const { report, cause } = await likelyCauseOfCommand('node test/fixtures/designs/keyword-boost.mjs', { cases: [] });
    expect(report.cases.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['property/any-content-blindness']);
    expect(cause!.report.principles?.map((p) => [p.requirement, p.explains])).toEqual([['ANY-7', 1]]);
    expect(cause!.text).toContain('selection reads the content');
  }, 120_000);
});
