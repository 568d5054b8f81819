/** What `ctxconform run` prints: progress in both modes, failures, the summary table. */
import { describe, expect, it } from 'vitest';
import { formatFailure, progress, summaryTable } from '../../running/console.js';
import type { Report } from '../../protocol/types.js';

function sink(): { stream: NodeJS.WriteStream; text: () => string } {
  let out = '';
  const stream = {
    columns: 40,
    write: (s: string) => {
      out += s;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, text: () => out };
}

describe('console output', () => {
  it('redraws one line on a terminal, cut to its width, and clears it at the end', () => {
    const s = sink();
    const p = progress(s.stream, true);
    p.update(0, 120, 'expiry/boundary-equal');
    p.update(1, 120, 'a/very/long/case/id/that/does/not/fit/in/forty/columns');
    p.end();
    expect(s.text()).toBe('\r\u001b[2K[  0/120] expiry/boundary-equal' + '\r\u001b[2K[  1/120] a/very/long/case/id/that/doe…' + '\r\u001b[2K');
  });

  it('prints a plain line at each tenth when not a terminal', () => {
    const s = sink();
    const p = progress(s.stream, false);
    for (let i = 0; i <= 20; i++) p.update(i, 20, i < 20 ? `c${i}` : '');
    p.end();
    const lines = s.text().trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('progress: 2/20 (c2)');
    expect(lines[lines.length - 1]).toBe('progress: 20/20');
    expect(s.text()).not.toContain('\r');
  });

  it('a failure shows id, requirements, the message, stderr without escapes, and the rerun command', () => {
    const text = formatFailure({
      id: 'tiers/x',
      kind: 'case',
      level: 'profile',
      status: 'crash',
      requirements: ['TIER-4', 'PROTO-5'],
      duration_ms: 1,
      message: 'the process exited with code 3 before answering; restarted',
      stderr: 'line 1\n\u001b[31mred error\u001b[0m\n',
      rerun: "npx ctxconform run --filter 'tiers/x'",
    });
    expect(text).toBe(
      [
        'CRASH tiers/x  [TIER-4, PROTO-5]',
        '    the process exited with code 3 before answering; restarted',
        '    stderr (tail):',
        '      line 1',
        '      red error',
        "    rerun: npx ctxconform run --filter 'tiers/x'",
      ].join('\n'),
    );
  });

  it('a failing case says what it is about and the budget it was judged at, and now where expiry is in play', () => {
    const base = {
      id: 'ordering/x',
      kind: 'case' as const,
      level: 'profile' as const,
      status: 'fail' as const,
      requirements: ['TIER-3'],
      duration_ms: 1,
      message: 'included: expected ["b-z"], got ["b-z","b-a"]',
    };
    const block = { block_id: 'b-a', source: 'memory', content: 'a', priority: 1 };
    const lines = formatFailure({
      ...base,
      description: 'Equal priorities tie by block_id.\nMore words the case file has.',
      request: { now: 5, budget: 12, blocks: [block, block] },
    }).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'FAIL ordering/x  [TIER-3]',
      '    Equal priorities tie by block_id.',
      '    request: budget 12, 2 blocks',
      '    included: expected ["b-z"], got ["b-z","b-a"]',
    ]);
    // An expiry case: the clock the expiry is read against.
    const expiry = formatFailure({
      ...base,
      requirements: ['EXP-1'],
      request: { now: 1010, budget: 50, blocks: [{ ...block, created_at: 1000, ttl_seconds: 10 }] },
    });
    expect(expiry).toContain('    request: budget 50, 1 block, now 1010');
    // A property's counterexample is its request.
    expect(formatFailure({ ...base, id: 'property/p', kind: 'property', level: 'profile', counterexample: { now: 0, budget: 3, blocks: [] } })).toContain(
      '    request: budget 3, 0 blocks',
    );
  });

  it('says first whose lines the stderr tail may hold when other requests were in flight, however long the tail', () => {
    const note = "[the process's stderr while this request and 3 others were in flight; some lines may be theirs]";
    const logs = Array.from({ length: 20 }, (_, i) => `log ${i}`);
    const text = formatFailure({
      id: 'x',
      kind: 'case',
      level: 'profile',
      status: 'fail',
      requirements: [],
      duration_ms: 1,
      message: 'm',
      stderr: logs.join('\n') + '\n',
      stderr_in_flight: 3,
    });
    const tail = text.split('\n').slice(text.split('\n').indexOf('    stderr (tail):') + 1);
    expect(tail).toEqual([`      ${note}`, '      …', ...logs.slice(-8).map((l) => `      ${l}`)]);
  });

  it('shows ids and sources made of invisible or control characters escaped, so none looks empty', () => {
    const text = formatFailure({
      id: 'replay/x.jsonl:1',
      kind: 'replay',
      level: 'profile',
      status: 'fail',
      requirements: [],
      duration_ms: 1,
      message: 'included: expected ["\ue000"], got ["\u200b","\u202eab"]',
    });
    expect(text).toContain('included: expected ["\\ue000"], got ["\\u200b","\\u202eab"]');
    expect(text).not.toMatch(/[\ue000\u200b\u202e]/);
  });

  it('a counterexample line names the seed and path it has, and no placeholder for what it lacks', () => {
    const base = {
      kind: 'property' as const,
      level: 'profile' as const,
      status: 'fail' as const,
      requirements: [],
      duration_ms: 1,
      message: 'm',
      counterexample: { budget: 1 },
    };
    expect(formatFailure({ ...base, id: 'property/p', seed: 3, path: '0:1' })).toContain('    counterexample (seed 3, path 0:1): {"budget":1}');
    expect(formatFailure({ ...base, id: 'contract/answers', kind: 'contract', level: 'contract', seed: 1 })).toContain(
      '    counterexample (seed 1): {"budget":1}',
    );
    expect(formatFailure({ ...base, id: 'replay/x.jsonl:2', kind: 'replay' })).toContain('    counterexample: {"budget":1}');
  });

  it('the summary table counts statuses per area and in total', () => {
    const c = (id: string, status: 'pass' | 'fail' | 'skip'): Report['cases'][number] => ({
      id,
      kind: 'case',
      level: 'profile',
      status,
      requirements: [],
      duration_ms: 0,
    });
    const report = {
      summary: { total: 3, pass: 1, fail: 1, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 1 },
      cases: [c('expiry/a', 'pass'), c('expiry/b', 'fail'), c('property/p', 'skip')],
    } as Report;
    expect(summaryTable(report).split('\n')).toEqual([
      'area      pass  fail  error  timeout  crash  skip  total',
      '--------  ----  ----  -----  -------  -----  ----  -----',
      'expiry       1     1      0        0      0     0      2',
      'property     0     0      0        0      0     1      1',
      '--------  ----  ----  -----  -------  -----  ----  -----',
      'all          1     1      0        0      0     1      3',
    ]);
  });
});
