/**
 * The kit's content-blindness property (SPEC ANY-7, property/any-content-blindness)
 * against two fixtures of other designs written from their descriptions: a design
 * that removes near-duplicates by word sets reads which words are equal, not which
 * words they are, and passes; a design that boosts a block for the word "urgent"
 * reads a word, and fails under ANY-7. Each runs over stdio, as a vendor runs it,
 * the one property alone for 1,000 runs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sameWidthTwin } from '../../judging/properties/any-level.js';
import { openImplementation } from '../../running/open.js';
import { runSuite } from '../../running/run.js';

const { fixtures } = JSON.parse(readFileSync(new URL('../fixtures/designs/expected.json', import.meta.url), 'utf8')) as {
  fixtures: { fixture: string; command: string }[];
};
const commandOf = (name: string): string => fixtures.find((f) => f.fixture === name)!.command;

/** The lower-cased word set of a text, from the fixture's description: words are maximal runs of letters and digits. */
const wordSet = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

describe('the twin keeps what a word-set design reads and changes the word a keyword design reads', () => {
  it.each([1, 2, 3, 4, 5])('shift %i', (shift) => {
    const a = sameWidthTwin('Rollback deploy on key.', shift);
    const b = sameWidthTwin('Key deploy on. Deploy deploy rollback.', shift);
    expect(wordSet(a)).toEqual(wordSet(b));
    expect(wordSet(a).size).toBe(4);
    expect(wordSet(a)).not.toEqual(wordSet('Rollback deploy on key.'));
    expect(sameWidthTwin('urgent', shift)).not.toBe('urgent');
    expect(sameWidthTwin('URGENT', shift).toLowerCase()).toBe(sameWidthTwin('urgent', shift));
  });
});

const RUNS = 1000;

/** The property's result on a fixture, run alone for RUNS runs, and how long the run took. */
async function blindness(name: string) {
  const opened = await openImplementation({ transport: 'stdio', config: { command: commandOf(name) }, timeoutMs: 10_000 });
  try {
    const t0 = performance.now();
    const report = await runSuite({
      cases: [],
      impl: opened.impl,
      manifest: opened.manifest,
      timeoutMs: 10_000,
      concurrency: 2,
      properties: RUNS,
      seed: 20261203,
      filter: 'property/any-content-blindness',
    });
    const ms = performance.now() - t0;
    console.log(`${name}: property/any-content-blindness, ${RUNS} runs, ${Math.round(ms)} ms`);
    expect(report.cases.map((c) => c.id)).toEqual(['property/any-content-blindness']);
    return report.cases[0]! as { status: string; message?: string; num_runs?: number };
  } finally {
    await opened.impl.close();
  }
}

describe(`property/any-content-blindness, ${RUNS} runs over stdio`, () => {
  it('passes wordset-dedupe: which blocks are near-duplicates is the same on the twin', async () => {
    const r = await blindness('wordset-dedupe');
    expect(r.message).toBeUndefined();
    expect(r.status).toBe('pass');
    expect(r.num_runs).toBe(RUNS);
  }, 600_000);

  it('fails keyword-boost under ANY-7: the word urgent is not urgent on the twin', async () => {
    const r = await blindness('keyword-boost');
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/\bANY-7\b/);
  }, 600_000);
});
