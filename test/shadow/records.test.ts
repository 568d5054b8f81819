/**
 * The records keeper and the scrubbing of a judge's message: at most N
 * records per kind (lines already in the file count), each a scrubbed
 * request; and no word of the request left in a message, also where the
 * message cut it, while the kit's own words stay.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordsKeeper, recordFileName, scrubMessage } from '../../traffic/shadow/records.js';
import { sampler } from '../../traffic/shadow/sampler.js';
import { scrubRequest } from '../../traffic/scrub.js';
import { assemble } from '../../reference/index.js';

const dir = mkdtempSync(join(tmpdir(), 'ctxconform-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = {
  now: 5,
  budget: 30,
  blocks: [
    { block_id: 'customer-4711', source: 'crm', content: 'Jane Doe prefers email contact', priority: 2 },
    { block_id: 'k', source: 'notes', content: 'secret plan', priority: 1 },
  ],
};

describe('the records keeper', () => {
  it('names a kind file after the kind, cutting a long one with a hash', () => {
    expect(recordFileName('shadow/EXP-1/differential')).toBe('EXP-1.differential.jsonl');
    expect(recordFileName('shadow/BUD-1/budget/error')).toBe('BUD-1.budget.error.jsonl');
    const long = `shadow/${Array.from({ length: 30 }, (_, i) => `TIER-${i}`).join('+')}/differential`;
    const name = recordFileName(long);
    expect(name.length).toBeLessThanOrEqual(80);
    expect(name).toMatch(/^TIER-0\+TIER-1\+.*-[0-9a-f]{10}\.jsonl$/);
    expect(recordFileName(`${long}x`)).not.toBe(name);
  });

  it('keeps at most N per kind, counting the lines a file already has, each one scrubbed and answered as the original', () => {
    const existing = join(dir, 'EXP-1.differential.jsonl');
    writeFileSync(existing, '{"now":0,"budget":1,"blocks":[]}\n');
    const keeper = new RecordsKeeper(dir, 3);
    const kept = [1, 2, 3, 4].map(() => keeper.keep(request, 'shadow/EXP-1/differential').kept);
    expect(kept.map((k) => k?.line)).toEqual([2, 3, undefined, undefined]);
    expect(keeper.keep(request, 'shadow/BUD-1/budget').kept).toEqual({ file: join(dir, 'BUD-1.budget.jsonl'), line: 1 });
    const lines = readFileSync(existing, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    const copy = JSON.parse(lines[1]!) as unknown;
    expect(lines[1]).not.toMatch(/Jane|customer|secret|crm/);
    expect(copy).toEqual(scrubRequest(request).request);
    // The scrub's promise, which makes the record evidence: the reference answers the copy as the original (renamed).
    const a = assemble(request) as { included: string[] };
    const b = assemble(copy) as { included: string[] };
    expect(b.included.length).toBe(a.included.length);
  });
});

describe('a judge message, scrubbed', () => {
  const copy = scrubRequest(request).request;
  it('renames the ids and sources it quotes and masks every word of the request, whole or cut', () => {
    const message =
      'differs from the reference in context, included:\ncontext: expected …"[crm · customer-4711]\\nJane Doe pref"…, got …""…\nincluded: expected ["customer-4711","k"], got ["k"]';
    const out = scrubMessage(message, request, copy);
    expect(out).not.toMatch(/Jane|Doe|pref|customer|4711|crm/);
    expect(out).toMatch(/^differs from the reference in context, included:\ncontext: expected …"\[\S+ · b0\]\\nxxxx xxx xxxx"…, got …""…/);
    expect(out).toContain('included: expected ["b0","b1"], got ["b1"]');
  });

  it('names a long id wherever the message names it, quoted or not', () => {
    expect(scrubMessage('block customer-4711 is missing', request, copy)).toBe('block b0 is missing');
  });
});

describe('the sampler', () => {
  it('takes none at 0, all at 1, and each request on its own draw in between', () => {
    expect(Array.from({ length: 10 }, sampler(0)).some(Boolean)).toBe(false);
    expect(Array.from({ length: 10 }, sampler(1)).every(Boolean)).toBe(true);
    const draws = [0.05, 0.5, 0.09, 0.1, 0.99];
    const take = sampler(0.1, () => draws.shift()!);
    expect(Array.from({ length: 5 }, take)).toEqual([true, false, true, false, false]);
    expect(() => sampler(1.5)).toThrow(/within 0\.\.1/);
    expect(() => sampler(Number.NaN)).toThrow(/within 0\.\.1/);
  });
});
