/** SPEC section 6: the recalled-beliefs packer. */
import { describe, expect, it } from 'vitest';
import { codePointLength, estimateTokens, RANKED_HEADER, utcDate } from '../../reference/index.js';
import type { Block, Request } from '../../reference/index.js';
import { NOW, block, cost, ok, refused } from './helpers.js';

// NOW = 1700000000 is day 19675 after the epoch (19675.93 days): 2023-11-14.
const DAY = '2023-11-14';
const ranked = (budget: number, blocks: Block[]): Request => ({ profile: 'ranked', now: NOW, budget, blocks });
const dated = (id: string, content: string, priority = 1, extra: Partial<Block> = {}): Block =>
  block(id, 'memory', content, priority, { created_at: NOW, ...extra });
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

describe('the header', () => {
  it('is 119 code points and costs 29 tokens', () => {
    expect(codePointLength(RANKED_HEADER)).toBe(119);
    expect(estimateTokens(RANKED_HEADER)).toBe(29);
    expect(RANKED_HEADER.startsWith('Here is what you remember about this user.')).toBe(true);
    expect(RANKED_HEADER.endsWith('some may be out of date:')).toBe(true);
  });
});

describe('packing', () => {
  it('adds a line while the header plus the lines fit: "- [2023-11-14] likes tea" is 24 code points, 6 tokens, and fits 35', () => {
    const r = ok(ranked(35, [dated('b', 'likes tea')]));
    expect(r.context).toBe(`${RANKED_HEADER}\n- [${DAY}] likes tea`);
    expect(r.included).toEqual(['b']);
    expect(r.estimated_tokens).toBe(35);
    expect(r.omissions).toEqual([]);
  });

  it('answers an empty context and 0 tokens when not even the first line fits', () => {
    const r = ok(ranked(34, [dated('b', 'likes tea')]));
    expect(r).toEqual({ context: '', included: [], estimated_tokens: 0, total_budget: 34, omissions: [{ block_id: 'b', reason: 'budget_exhausted' }] });
  });

  it('answers an empty context and 0 tokens for no blocks, not the header alone', () => {
    expect(ok(ranked(1000, []))).toEqual({ context: '', included: [], estimated_tokens: 0, total_budget: 1000, omissions: [] });
  });

  it('joins the header and the lines with single newlines', () => {
    const r = ok(ranked(41, [dated('a', 'likes tea', 2), dated('b', 'has a cat', 1)]));
    expect(r.context).toBe(`${RANKED_HEADER}\n- [${DAY}] likes tea\n- [${DAY}] has a cat`);
    expect(r.estimated_tokens).toBe(41);
  });

  it('stops at the first line that does not fit and never tries a later, smaller one', () => {
    // The big line is 215 code points (53 tokens); the small one, "- [2023-11-14] tea", 18 (4 tokens) would fit.
    const r = ok(ranked(40, [dated('big', cost(50), 3), dated('small', 'tea', 2)]));
    expect(r.included).toEqual([]);
    expect(r.omissions).toEqual([
      { block_id: 'big', reason: 'budget_exhausted' },
      { block_id: 'small', reason: 'budget_exhausted' },
    ]);
  });

  it('counts the line, not just the content, in code points', () => {
    // "- [2023-11-14] " is 15 code points; 17 astral characters make 32 code points, 8 tokens; 29 + 8 = 37.
    expect(ok(ranked(37, [dated('e', '\u{1F600}'.repeat(17))])).estimated_tokens).toBe(37);
    expect(ok(ranked(36, [dated('e', '\u{1F600}'.repeat(17))])).included).toEqual([]);
  });
});

describe('order', () => {
  it('takes higher priority first and lists included blocks in packing order', () => {
    const r = ok(ranked(100, [dated('low', 'a', 1), dated('high', 'b', 5), dated('mid', 'c', 3)]));
    expect(r.included).toEqual(['high', 'mid', 'low']);
  });

  it('keeps input order among equal priorities, ignoring block ids', () => {
    const r = ok(ranked(100, [dated('c', 'x'), dated('a', 'y'), dated('b', 'z')]));
    expect(r.included).toEqual(['c', 'a', 'b']);
  });

  it('treats priority -0 as equal to 0, keeping input order', () => {
    expect(ok(ranked(100, [dated('z', 'x', 0), dated('a', 'y', -0)])).included).toEqual(['z', 'a']);
  });

  it('omits expired blocks first, in input order, then budget omissions in packing order', () => {
    const old = { created_at: NOW - 100, ttl_seconds: 10 };
    const r = ok(ranked(35, [dated('lo', 'x', 1), dated('e2', 'x', 9, old), dated('hi', 'likes tea', 5), dated('e1', 'x', 9, old), dated('mid', 'x', 3)]));
    expect(r.included).toEqual(['hi']);
    expect(r.omissions).toEqual([
      { block_id: 'e2', reason: 'expired' },
      { block_id: 'e1', reason: 'expired' },
      { block_id: 'mid', reason: 'budget_exhausted' },
      { block_id: 'lo', reason: 'budget_exhausted' },
    ]);
  });
});

describe('dates', () => {
  it('prints "undated" for a block without created_at', () => {
    expect(ok(ranked(100, [block('u', 'memory', 'likes tea', 1)])).context).toBe(`${RANKED_HEADER}\n- [undated] likes tea`);
  });

  it('expires an undated block as if created at 0', () => {
    expect(ok(ranked(100, [block('u', 'memory', 'x', 1, { ttl_seconds: 10 })])).omissions).toEqual([{ block_id: 'u', reason: 'expired' }]);
  });

  it('prints the UTC day containing the instant, around the epoch', () => {
    expect(utcDate(0)).toBe('1970-01-01');
    expect(utcDate(86399.999)).toBe('1970-01-01');
    expect(utcDate(86400)).toBe('1970-01-02');
    expect(utcDate(1e9)).toBe('2001-09-09');
  });

  it('floors negative and fractional times to the day before', () => {
    expect(utcDate(-1)).toBe('1969-12-31');
    expect(utcDate(-0.5)).toBe('1969-12-31');
    expect(utcDate(-86400)).toBe('1969-12-31');
    expect(utcDate(-86400.5)).toBe('1969-12-30');
  });

  it('prints leap days and skips the ones 1900 and 2100 do not have', () => {
    expect(utcDate(Date.UTC(2024, 1, 29) / 1000)).toBe('2024-02-29');
    expect(utcDate(Date.UTC(2000, 1, 29) / 1000)).toBe('2000-02-29');
    expect(utcDate(Date.UTC(1900, 1, 28) / 1000 + 86400)).toBe('1900-03-01');
    expect(utcDate(Date.UTC(2100, 1, 28) / 1000 + 86400)).toBe('2100-03-01');
  });

  it('prints the first and last printable days, 0001-01-01 and 9999-12-31, with four-digit years', () => {
    expect(utcDate(-62135596800)).toBe('0001-01-01');
    expect(utcDate(-62135596800 + 86399.5)).toBe('0001-01-01');
    expect(utcDate(253402300799)).toBe('9999-12-31');
    expect(utcDate(-62135596800 + 365 * 86400 * 9)).toBe('0009-12-30'); // years 1..8 hold two leap days (4, 8)
  });

  it('agrees with Date.prototype.toISOString on every 997th day from year 1 to 9999', () => {
    let wrong = 0;
    let n = 0;
    for (let s = -62135596800 + 3600.25; s <= 253402300799; s += 997 * 86400) {
      n++;
      if (utcDate(s) !== iso(s)) wrong++;
    }
    expect(n).toBeGreaterThan(3600);
    expect(wrong).toBe(0);
  });

  it('prints the date of a fractional negative created_at in the line', () => {
    expect(ok(ranked(100, [dated('b', 'x', 1, { created_at: -0.5 })])).context).toBe(`${RANKED_HEADER}\n- [1969-12-31] x`);
  });
});

describe('what the packer refuses (VAL-9)', () => {
  it('refuses a created_at it cannot print, which tiered accepts', () => {
    expect(refused(ranked(100, [dated('b', 'x', 1, { created_at: 253402300800 })])).code).toBe('invalid_request');
    expect(refused(ranked(100, [dated('b', 'x', 1, { created_at: -62135596801 })])).code).toBe('invalid_request');
    expect(ok({ now: NOW, budget: 100, blocks: [dated('b', 'x', 1, { created_at: 253402300800 })] }).included).toEqual(['b']);
  });

  it('refuses constraints, pinned blocks and lifecycle statuses', () => {
    expect(refused({ ...ranked(100, []), constraints: { max_segments: null } }).problems?.map((p) => p.path)).toEqual(['/constraints']);
    expect(refused(ranked(100, [dated('b', 'x', 1, { pinned: true })])).problems?.map((p) => p.path)).toEqual(['/blocks/0/pinned']);
    expect(refused(ranked(100, [dated('b', 'x', 1, { status: 'stale' })])).problems?.map((p) => p.path)).toEqual(['/blocks/0/status']);
  });
});

describe('result members', () => {
  it('has exactly the five core members whatever capabilities are declared', () => {
    const r = ok(ranked(100, [dated('b', 'x')]));
    expect(Object.keys(r).sort()).toEqual(['context', 'estimated_tokens', 'included', 'omissions', 'total_budget']);
  });

  it('ignores the source, confidence and the block id in the text', () => {
    const r = ok(ranked(100, [block('id-1', 'tactics', 'likes tea', 1, { created_at: NOW, confidence: 0.1 })]));
    expect(r.context).toBe(`${RANKED_HEADER}\n- [${DAY}] likes tea`);
  });
});
