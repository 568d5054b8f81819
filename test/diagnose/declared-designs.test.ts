/**
 * The designs of real products, written from their descriptions as fixtures
 * (test/fixtures/designs/: a header-inclusive greedy with ties by id, a
 * lowest-priority-first pruner, a priority cutoff, a chunk cutter, a
 * sectioned prompt), each with a planted deviation: run over stdio as a vendor
 * runs them, each plant's first likely-cause line names its own principle and,
 * where the answers show one, the way it differs from its declaration.
 */
import { describe, expect, it } from 'vitest';
import { likelyCauseOfCommand } from './likely-cause-of.js';

const PLANTS: [string, string, string, RegExp][] = [
  ['scored-memories', 'false-expired', 'ANY-4', /^live blocks are omitted as expired: the reason is false of the block$/],
  [
    'scored-memories',
    'inclusive-boundary',
    'ANY-4',
    /^blocks at the instant now == created_at \+ ttl_seconds are omitted as expired, .*declare "expiry": "inclusive"/,
  ],
  ['scored-memories', 'exact-fit', 'ANY-14', /^a block that exactly fills what is left is dropped: the fit test is strict/],
  ['scored-memories', 'input-ties', 'ANY-14', /^blocks of equal rank are broken by another tie rule than the design declares/],
  ['priority-pruner', 'input-ties', 'ANY-14', /^blocks of equal rank are broken by another tie rule than the design declares/],
  ['priority-pruner', 'exact-fit', 'ANY-14', /^a block that exactly fills what is left is dropped: the fit test is strict/],
  ['priority-cutoff', 'split-level', 'ANY-14', /^a level of equal rank is taken block by block where the design declares each level kept or dropped whole/],
  ['priority-cutoff', 'exact-fit', 'ANY-14', /^a block that exactly fills what is left is dropped: the fit test is strict/],
  ['chunk-cutter', 'mid-word', 'ANY-1', /^blocks are cut to fit/],
  ['chunk-cutter', 'needless-cut', 'ANY-1', /^blocks are cut to fit/],
  ['sectioned-prompt', 'empty-header', 'ANY-11', /^text of the implementation’s own is written into the context$/],
  ['sectioned-prompt', 'exclusive-boundary', 'ANY-5', /^expired blocks are included$/],
];

const run = (fixture: string, plant?: string) =>
  likelyCauseOfCommand(`node test/fixtures/designs/${fixture}.mjs${plant ? ` --plant ${plant}` : ''}`, { seed: 20261208, properties: 30 });

describe('the designs of real products, as declared', () => {
  it.each(['scored-memories', 'priority-pruner', 'priority-cutoff', 'chunk-cutter', 'sectioned-prompt'])(
    '%s fails nothing',
    async (fixture) => {
      const { report, cause } = await run(fixture);
      expect(report.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(cause).toBeUndefined();
    },
    120_000,
  );

  it.each(PLANTS)(
    '%s --plant %s: %s first, in its own words',
    async (fixture, plant, id, words) => {
      const { cause } = await run(fixture, plant);
      const first = cause!.report.principles![0]!;
      expect(`${first.requirement} ${first.summary}`).toMatch(new RegExp(`^${id} `));
      expect(first.summary).toMatch(words);
      expect(first.explains * 2).toBeGreaterThan(first.failing);
    },
    120_000,
  );
});
