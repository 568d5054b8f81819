import { describe, expect, it } from 'vitest';
import { summarize } from '../../protocol/types.js';
import type { CaseResult, Report, Status } from '../../protocol/types.js';
import { badgeColour, badgeData, renderBadge } from '../../report/badge.js';
import { parseXml, all } from './xml.js';

function report(counts: Partial<Record<Status, number>>): Report {
  const cases: CaseResult[] = [];
  for (const [status, n] of Object.entries(counts) as [Status, number][]) {
    for (let i = 0; i < n; i++) {
      const c: CaseResult = { id: `a/${status}-${i}`, kind: 'case', level: 'profile', status, requirements: [], duration_ms: 0 };
      if (status !== 'pass') c.message = status;
      cases.push(c);
    }
  }
  return {
    kit: { name: 'ctxconform', version: '0.1.0', spec: 'v1' },
    implementation: { name: 'x', version: '1', profiles: ['tiered'], capabilities: [] },
    summary: summarize(cases),
    cases,
  };
}

describe('badge', () => {
  it('scores pass / (total - skip), rounded down, coloured by the shown percentage', () => {
    // 97 of 100 ran (3 skipped do not count): 97%.
    expect(badgeData(report({ pass: 97, fail: 3, skip: 3 }))).toEqual({ schemaVersion: 1, label: 'conformance', message: '97%', color: 'green' });
    expect(badgeData(report({ pass: 10 }))).toMatchObject({ message: '100%', color: 'brightgreen' });
    // 199 of 200 is 99.5%: shown as 99%, and only a full pass is brightgreen.
    expect(badgeData(report({ pass: 199, crash: 1 }))).toMatchObject({ message: '99%', color: 'green' });
    expect(badgeData(report({ pass: 19, fail: 1 }))).toMatchObject({ message: '95%', color: 'green' });
    expect(badgeData(report({ pass: 94, fail: 6 }))).toMatchObject({ message: '94%', color: 'yellowgreen' });
    expect(badgeData(report({ pass: 9, timeout: 1 }))).toMatchObject({ message: '90%', color: 'yellowgreen' });
    expect(badgeData(report({ pass: 3, error: 1 }))).toMatchObject({ message: '75%', color: 'yellow' });
    expect(badgeData(report({ pass: 1, fail: 1 }))).toMatchObject({ message: '50%', color: 'orange' });
    expect(badgeData(report({ pass: 49, fail: 51 }))).toMatchObject({ message: '49%', color: 'red' });
    expect(badgeData(report({ skip: 4 }))).toMatchObject({ message: 'n/a', color: 'lightgrey' });
    expect(badgeColour(0)).toBe('red');
  });

  it('draws a well-formed flat SVG with the label and the score', () => {
    const svg = renderBadge(report({ pass: 97, fail: 3 }));
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attrs['aria-label']).toBe('conformance: 97%');
    expect(root.attrs.height).toBe('20');
    const texts = all(root, 'text').map((t) => t.text);
    expect(texts).toEqual(['conformance', 'conformance', '97%', '97%']);
    const fills = all(root, 'rect').map((r) => r.attrs.fill);
    expect(fills).toContain('#555');
    expect(fills).toContain('#97ca00');
    // The message box starts where the label box ends, and the two fill the width.
    const [label, message] = all(root, 'rect').filter((r) => r.attrs.fill === '#555' || r.attrs.fill === '#97ca00');
    expect(Number(message!.attrs.x)).toBe(Number(label!.attrs.width));
    expect(Number(label!.attrs.width) + Number(message!.attrs.width)).toBe(Number(root.attrs.width));
  });
});
