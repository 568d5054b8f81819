import { describe, expect, it } from 'vitest';
import { charDiff, diffable, sideBySide } from '../../report/textdiff.js';

describe('side-by-side diff', () => {
  it('marks only the differing middle of a changed line', () => {
    expect(charDiff('b-1', 'b-2')).toEqual({
      left: [
        { text: 'b-', changed: false },
        { text: '1', changed: true },
      ],
      right: [
        { text: 'b-', changed: false },
        { text: '2', changed: true },
      ],
    });
    // Code points, not UTF-16 units: an emoji is one unit of change.
    expect(charDiff('a😀b', 'a😁b').left).toEqual([
      { text: 'a', changed: false },
      { text: '😀', changed: true },
      { text: 'b', changed: false },
    ]);
  });

  it('aligns equal lines and pairs the changed ones', () => {
    const rows = sideBySide('a\nb\nc\nd', 'a\nc\nx\nd');
    expect(rows).toEqual([
      { kind: 'same', left: 'a', right: 'a' },
      { kind: 'changed', left: [{ text: 'b', changed: true }], right: null },
      { kind: 'same', left: 'c', right: 'c' },
      { kind: 'changed', left: null, right: [{ text: 'x', changed: true }] },
      { kind: 'same', left: 'd', right: 'd' },
    ]);
    expect(sideBySide('same', 'same')).toEqual([{ kind: 'same', left: 'same', right: 'same' }]);
  });

  it('shows multi-line strings as blocks of lines', () => {
    expect(diffable({ included: ['a'], context: 'x\ny' })).toBe('{\n  "included": [\n    "a"\n  ],\n  "context": |\n      x\n      y\n}');
    expect(diffable('plain\ntext')).toBe('plain\ntext');
    expect(diffable({ n: 1, e: [], o: {} })).toBe('{\n  "n": 1,\n  "e": [],\n  "o": {}\n}');
  });
});
