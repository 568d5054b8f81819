/**
 * Hangs named by cause (issue 50): an assembler that loops for ever on some
 * requests gets, besides "no answer within N ms", the principle the hang
 * blocks (ANY-13) on each result and a likely cause that says which requests
 * hang, read from the timed-out requests against the answered ones.
 */
import { describe, expect, it } from 'vitest';
import { greedy, greedyManifest } from '../fixtures/other-designs/greedy.js';
import { likelyCauseOf } from './likely-cause-of.js';

/** The greedy design, except that a budget of 0 sends it round a loop that never ends (it waits for room that never comes). */
const hangsAtZero = (request: unknown): unknown => ((request as { budget: number }).budget === 0 ? new Promise(() => {}) : greedy()(request));

describe('a design that hangs at a budget of 0', () => {
  it('fails under ANY-13, and the likely cause says which requests hang', async () => {
    const { report, cause } = await likelyCauseOf(hangsAtZero, greedyManifest('hangs-at-zero'), { timeoutMs: 300, concurrency: 8 });
    const hung = report.cases.filter((c) => c.status === 'timeout');
    expect(hung.length).toBeGreaterThan(0);
    expect(hung.every((c) => (c.broke ?? c.requirements).includes('ANY-13'))).toBe(true);
    const line = report.principles?.find((p) => p.requirement === 'ANY-13');
    expect(line?.explains).toBe(hung.length);
    expect(line?.summary).toMatch(
      new RegExp(
        `^valid requests get no answer in time \\(they hang\\): the requests that hang hold a budget of 0 \\(${hung.length} of ${hung.length} that hang, 0 of \\d+ answered\\)`,
      ),
    );
    expect(cause!.text).toContain('they hang): the requests that hang hold a budget of 0');
  }, 60_000);
});
