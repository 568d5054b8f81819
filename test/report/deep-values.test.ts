/**
 * Values of any depth and length in a report: the JSON report writes a value nested past
 * REPORT_DEPTH levels as a string that says so (a reader's parser gives up at some depth), a
 * writer of a million pieces never builds an array of them, and the human reports show a long
 * value only up to their cut, writing no more of it than they show.
 */
import { describe, expect, it } from 'vitest';
import { depthOf, stringifyJson, writeJson } from '../../protocol/deep-json.js';
import { REPORT_DEPTH, renderJson } from '../../report/json.js';
import { clip, show, shownClipped } from '../../report/text.js';

const nested = (depth: number): unknown => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

describe('deep and long values in reports', () => {
  it('writes an answer nested 300,000 deep to REPORT_DEPTH, then a string that says so; a request whole', () => {
    const result = { id: 'x', kind: 'case', status: 'error', requirements: [], actual: { extra: nested(300_000) }, request: nested(1000) };
    const report = {
      kit: { name: 'ctxconform', version: '0' },
      implementation: { name: 'x', version: '1', profiles: ['any'], capabilities: [] },
      run: {},
      summary: { total: 1, pass: 0, fail: 0, error: 1, timeout: 0, crash: 0, skip: 0 },
      cases: [result],
    };
    const text = renderJson(report as never);
    expect(text.length).toBeLessThan(100_000);
    const read = JSON.parse(text) as { cases: { actual: { extra: unknown }; request: unknown }[] };
    let v: unknown = read.cases[0]!.actual.extra;
    let depth = 2;
    while (typeof v === 'object' && v !== null) {
      v = (v as { a: unknown }).a;
      depth++;
    }
    expect(depth).toBe(REPORT_DEPTH + 1);
    expect(v).toBe(`[an object nested deeper than ${REPORT_DEPTH} levels: not written]`);
    expect(depthOf(read.cases[0]!.request)).toBe(1000);
  });

  it('writes what JSON.stringify writes for a shallow value, and a wide one of millions of pieces whole', () => {
    const shallow = { a: [1, 'two', null, { b: true }], c: -0, d: 1e21 };
    expect(stringifyJson(shallow, 2, REPORT_DEPTH)).toBe(JSON.stringify(shallow, null, 2));
    const wide = Array.from({ length: 1_000_000 }, (_, i) => i % 10);
    expect(writeJson({ wide }, { indent: 0, indentDepth: 64 })).toBe(JSON.stringify({ wide }));
  });

  it('shows a long value up to the cut, and a short one exactly as before', () => {
    const short = { included: ['a', 'b'], omissions: [] };
    expect(shownClipped(short, 100)).toBe(clip(show(short), 100));
    expect(shownClipped(short, 10)).toBe(clip(show(short), 10));
    const long = { context: 'x'.repeat(200_000) };
    const shown = shownClipped(long, 1000);
    expect(shown.startsWith(show(long).slice(0, 1000))).toBe(true);
    expect(shown).toMatch(/… \(more than \d+ more characters\)$/);
    expect(shownClipped({ extra: nested(300_000) }, 500).length).toBeLessThan(600);
  });
});
