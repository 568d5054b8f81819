/**
 * A refused --filter word that names an area, a tag or a requirement
 * suggests the selector: `expiry` is no case id, but `area:expiry` is what
 * was meant.
 */
import { describe, expect, it } from 'vitest';
import { checkedFilter, FilterError } from '../../judging/cases/filter.js';
import { cli } from '../cli.js';

const cases = [
  { id: 'expiry/boundary', tags: ['boundary'] },
  { id: 'tiers/split', tags: ['rounding'] },
];

const refusal = (expr: string): string => {
  try {
    checkedFilter(expr, cases);
  } catch (e) {
    if (e instanceof FilterError) return e.message;
    throw e;
  }
  throw new Error(`${expr} was not refused`);
};

describe('--filter suggests the selector a bare word names', () => {
  it('an area, a tag, a requirement id or a section prefix', () => {
    expect(refusal('expiry')).toBe('"expiry": no case, property or contract clause has that id; did you mean area:expiry?');
    expect(refusal('rounding')).toBe('"rounding": no case, property or contract clause has that id; did you mean tag:rounding?');
    expect(refusal('TIER-4')).toBe('"TIER-4": no case, property or contract clause has that id; did you mean req:TIER-4?');
    expect(refusal('CON-')).toBe('"CON-": no case, property or contract clause has that id; did you mean req:CON-?');
    // Negated, the suggestion keeps the `!`; a word that names nothing lists the areas as before.
    expect(refusal('tiers/*,!boundary')).toBe('"boundary": no case, property or contract clause has that id; did you mean !tag:boundary?');
    expect(refusal('nothing-like-it')).toMatch(
      /^"nothing-like-it": no case, property or contract clause has an id it matches \(areas: contract, expiry, property, tiers\)$/,
    );
    // What matches an id is not refused.
    expect(() => checkedFilter('expiry/*', cases)).not.toThrow();
  });

  it('on the command line: exit 2 with the suggestion', () => {
    const r = cli('run', '--filter', 'expiry', '--properties', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/did you mean area:expiry( or tag:expiry)?\?/);
  });
});
