import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../protocol/types.js';
import { cell, code, fenced, MAX_SUMMARY_BYTES, md, paragraph, renderMarkdown } from '../../report/markdown.js';
import { fixtureRuns, pythonAvailable } from '../fixtures/reports/build.js';
import { hostileReport } from '../fixtures/reports/hostile-report.js';

let reference: Report;
let broken: Report;
let python: Report | undefined;

beforeAll(async () => {
  ({ reference, broken, python } = await fixtureRuns());
});

/** Cells of a GFM table row: split at pipes not escaped by a backslash. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

function tables(text: string): string[][] {
  const out: string[][] = [];
  let cur: string[] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('|')) {
      cur ??= [];
      cur.push(line);
    } else if (cur) {
      out.push(cur);
      cur = undefined;
    }
  }
  if (cur) out.push(cur);
  return out;
}

describe('Markdown summary', () => {
  it('gives the verdict, the counts and the areas of a passing run', () => {
    const text = renderMarkdown(reference);
    expect(text.split('\n')[0]).toBe('## ✅ ctxconform: ctxconform-reference 1.0.0');
    expect(text).toContain('**PASS: all 8 cases that ran passed**');
    const [counts, areas] = tables(text);
    expect(counts!.map(cells)).toContainEqual(['✅ pass', '8']);
    expect(counts!.map(cells)).toContainEqual(['**score**', '**100%**']);
    expect(areas!.slice(2).map((r) => cells(r)[0])).toEqual(['budget', 'capabilities', 'errors', 'expiry', 'hostile', 'ranked', 'render']);
    expect(text).not.toContain('### Failures');
  });

  it('lists the failures of the broken implementation with ids, requirement ids and the rerun command', () => {
    const text = renderMarkdown(broken);
    expect(text).toContain('**FAIL: 4 of 8 cases that ran did not pass (3 fail, 1 crash)**');
    const failures = tables(text)[2]!;
    expect(cells(failures[0]!)).toEqual(['case', 'status', 'requirements', 'message']);
    const rows = failures.slice(2).map(cells);
    expect(rows.map((r) => r[0])).toEqual(['`budget/tiny`', '`capabilities/pinned-first`', '`hostile/markup-ids`', '`render/two-sources`']);
    expect(rows[3]![2]).toBe('REN-1, REN-2, REN-3');
    expect(rows[0]![1]).toBe('☠️ crash');
    expect(text).toContain('#### ❌ `render/two-sources`: fail (REN-1, REN-2, REN-3)');
    expect(text).toContain("Rerun: `npx ctxconform run --filter 'render/two-sources'`");
    expect(text).toContain('| budget | 2 | 1 | 0 | 1 | 0 | 50% |');
    expect(text).toContain('| **score** | **50%** |');
  });

  it.runIf(pythonAvailable())('summarizes the skips of the Python example by reason', () => {
    const text = renderMarkdown(python!);
    expect(text).toContain('**PASS: all 6 cases that ran passed, 2 skipped**');
    expect(text).toContain('<details><summary>Skipped (2)</summary>');
    expect(text).toContain('| profile ranked is not declared by the implementation | 1 |');
  });

  it('escapes user text: no raw HTML, no extra table columns, no code span or fence closed early', () => {
    const text = renderMarkdown(hostileReport());
    // Outside fenced blocks no `<` from the data survives, so no tag can open.
    let inFence: string | undefined;
    for (const line of text.split('\n')) {
      const fence = /^(`{3,})/.exec(line)?.[1];
      if (fence && (!inFence || fence === inFence)) {
        inFence = inFence ? undefined : fence;
        continue;
      }
      if (inFence) continue;
      // Code spans are literal text in CommonMark: drop them (a run of n backticks closes only at a run of exactly n).
      const stripped = line.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '').replace(/<\/?(details|summary|br)>/g, '');
      expect(stripped).not.toContain('`');
      expect(stripped, line).not.toMatch(/<[a-z!/]/i);
    }
    expect(inFence).toBeUndefined();
    for (const t of tables(text)) {
      const width = cells(t[0]!).length;
      for (const row of t) expect(cells(row), row).toHaveLength(width);
    }
    expect(text).toContain('ctxconform: impl &lt;script&gt;window.\\_\\_pwned=1;alert(1)&lt;/script&gt; \\~ "&gt;&lt;img src=x');
    expect(text).toContain('baseline: 1 known, 5 unexpected, 1 stale');
  });

  it('neither autolinks a bare URL nor mentions anyone, in text and in cells', () => {
    const hostile = 'see https://evil.example/x, HTTP://A.B, www.evil.example, ftp://f and mailto:a@b.co; cc @octocat @org/team';
    for (const out of [md(hostile), paragraph(hostile), cell(hostile)]) {
      // What GitHub's and GitLab's autolinkers and mention filters look for, after entities are decoded.
      const rendered = out.replace(/&#8203;/g, '\u200b').replace(/\\(.)/g, '$1');
      expect(rendered).not.toMatch(/(https?|ftp):\/\/|www\.|mailto:|@[A-Za-z0-9]/i);
      // The text still reads the same once the zero-width spaces are dropped.
      expect(rendered.replace(/\u200b/g, '')).toBe(hostile);
    }
  });

  it('escapes inline text, cells, code spans and fences', () => {
    expect(md('a|b `c` *d* <e> & [f](javascript:x)')).toBe('a\\|b \\`c\\` \\*d\\* &lt;e&gt; &amp; \\[f\\](javascript:x)');
    expect(paragraph('# title\n1. one\n- item')).toBe('\\# title  \n1\\. one  \n\\- item');
    expect(cell('one\ntwo|three')).toBe('one<br>two\\|three');
    expect(code('a ``b`` c')).toBe('```a ``b`` c```');
    expect(code('a|b', true)).toBe('`a\\|b`');
    expect(fenced('x\n```\ny')).toBe('````\nx\n```\ny\n````');
  });
});

describe('Markdown size', () => {
  it('stays under the 1 MiB step-summary limit for a run with thousands of large failures', async () => {
    const { summarize } = await import('../../protocol/types.js');
    const big = 'x'.repeat(50_000);
    const cases = Array.from({ length: 3000 }, (_, i) => ({
      id: `area${i % 7}/case-${i}`,
      kind: 'case' as const,
      level: 'profile' as const,
      status: 'fail' as const,
      requirements: ['TIER-4'],
      duration_ms: 1,
      message: `message ${i} ${big}`,
      expected: big,
      actual: `${big}!`,
      stderr: big,
    }));
    const text = renderMarkdown({ ...broken, summary: summarize(cases), cases });
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    expect(text).toContain('**FAIL: 3000 of 3000 cases that ran did not pass (3000 fail)**');
    expect(text).toContain('…and 2500 more in the JSON and HTML reports.');
    expect(text).toMatch(/Details of \d+ more failures are in the JSON and HTML reports\./);
  });
});
