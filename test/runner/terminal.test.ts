/**
 * Nothing untrusted reaches a terminal raw (report/terminal.ts, cli/output.ts).
 * Each attacker plays its part through the compiled command line: an
 * implementation over stdio whose manifest, stderr and answers are made of
 * escape sequences, CR, NUL, backspace, newlines, bidi overrides and CI
 * workflow commands; a baseline written the same way; report files of
 * the same kind given to diff, merge, baseline and matrix. On stdout and
 * stderr there must be no control character but newline and tab, no C1, no
 * format or line-separator character, and no line a CI runner takes for a
 * command (`::name` at its start, `##[` anywhere), while what the attacker
 * wrote is still there to read, escaped.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalText, terminalValue } from '../../report/terminal.js';
import type { Report } from '../../protocol/types.js';
import { cli, ROOT } from '../cli.js';
import { fixtureCommand } from '../fixture-command.js';
import { HOSTILE } from '../fixtures/hostile/text.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-terminal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string): string => join(tmp, name);
const hostile = fixtureCommand(join(ROOT, 'test/fixtures/hostile/terminal.ts'));

/** What a terminal must not be given: controls but \n and \t, DEL and C1, format characters (bidi, zero-width, tags), line and paragraph separators. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/u;

/** Every way `text` could act on a terminal or a CI log, one string each (empty when there is none). */
function attacks(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const bad = UNSAFE.exec(line);
    if (bad) found.push(`line ${i + 1}: U+${bad[0].codePointAt(0)!.toString(16).padStart(4, '0')} in ${JSON.stringify(line.slice(0, 120))}`);
    if (/^\s*::/.test(line)) found.push(`line ${i + 1} starts a workflow command: ${JSON.stringify(line.slice(0, 120))}`);
    if (/##(\[|vso\[)/.test(line)) found.push(`line ${i + 1} holds a workflow command: ${JSON.stringify(line.slice(0, 120))}`);
  });
  return found;
}

function expectInert(r: { stdout: string; stderr: string }): void {
  expect(attacks(r.stdout), r.stdout).toEqual([]);
  expect(attacks(r.stderr), r.stderr).toEqual([]);
}

describe('the escaping', () => {
  it('shows each control, format and separator character as its JSON escape, keeps newlines and tabs in text and not in a value', () => {
    expect(terminalValue('a\u001b[31mb\u0007c\rd\u0000e\u0008f\ng\th\u202ei\u2066j\u0085k\u2028l\u200bm')).toBe(
      'a\\u001b[31mb\\u0007c\\rd\\u0000e\\bf\\ng\\th\\u202ei\\u2066j\\u0085k\\u2028l\\u200bm',
    );
    expect(terminalText('one\ttwo\nthree\r\nfour\rfive')).toBe('one\ttwo\nthree\nfour\\rfive');
    // A tag character (format, beyond the BMP) is escaped as JSON escapes it; an emoji is text.
    expect(terminalValue('\u{e0041}🙂')).toBe('\\udb40\\udc41🙂');
    expect(terminalValue('\ud800x')).toBe('\\ud800x');
  });

  it('leaves no line a CI runner reads as a command', () => {
    expect(terminalText('::add-mask::x\n  ::error file=a::b\nok ::notice:: mid-line\nsee ##[warning]w and ##vso[task.setvariable]v')).toBe(
      '\\u003a:add-mask::x\n  \\u003a:error file=a::b\nok ::notice:: mid-line\nsee #\\u0023[warning]w and #\\u0023vso[task.setvariable]v',
    );
  });

  it('keeps a JSON document valid, with the same values', () => {
    const value = { id: `x${HOSTILE}`, nested: [HOSTILE, { [HOSTILE]: 1 }] };
    const text = terminalText(JSON.stringify(value, null, 2));
    expect(attacks(text)).toEqual([]);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('is idempotent: text escaped once is shown the same again', () => {
    const once = terminalText(HOSTILE);
    expect(terminalText(once)).toBe(once);
    expect(terminalValue(terminalValue(HOSTILE))).toBe(terminalValue(HOSTILE));
  });
});

describe('attackers on the terminal', () => {
  let report: string;

  beforeAll(() => {
    report = at('hostile.json');
    const r = cli('run', '--stdio', hostile, '--filter', 'empty/*', '--properties', '0', '--json', report);
    expect(r.status, r.stdout + r.stderr).toBe(1);
  }, 60_000);

  it('an implementation: its manifest, stderr, answers and unknown members are shown escaped', () => {
    const r = cli('run', '--stdio', hostile, '--filter', 'empty/*', '--properties', '0');
    expect(r.status, r.stderr).toBe(1);
    expectInert(r);
    // Still there to read: the name, the stderr tail, the unknown member.
    expect(r.stdout).toContain('hostile\\u001b]0;pwned\\u0007');
    expect(r.stdout).toContain('log line');
    expect(r.stdout).toContain('\\u003a:error::from stderr');
    expect(r.stdout).toMatch(/unevaluated properties "member/);
  }, 60_000);

  it('a baseline: its reasons, links and accepted defects are shown escaped (by design, NEW FAILURE)', () => {
    const baseline = at('hostile-baseline.json');
    writeFileSync(
      baseline,
      JSON.stringify({
        'empty/all-expired': { status: 'error', kind: 'by-design', reason: `reason${HOSTILE}`, link: `https://x.example/${HOSTILE}` },
        'empty/budget-zero-no-blocks': { status: 'error', kind: 'bug', reason: HOSTILE, defect: { checks: [HOSTILE], members: [HOSTILE] } },
        [`gone${HOSTILE}`]: 'fail',
      }),
    );
    const r = cli('run', '--stdio', hostile, '--filter', 'empty/*', '--properties', '0', '--baseline', baseline);
    expectInert(r);
    expect(r.stdout).toContain('NEW FAILURE of empty/budget-zero-no-blocks');
    expect(r.stdout).toContain('deviation by design (baseline):');
    // Its colours and titles stripped, as a reason's always were; what is left, escaped.
    expect(r.stdout).toContain('reasonred\\rOVERWRITTEN\\u0000');
  }, 60_000);

  describe('report files given to diff, merge, baseline and matrix', () => {
    let old: string;
    let now: string;
    let other: string;

    beforeAll(() => {
      const r = JSON.parse(readFileSync(report, 'utf8')) as Report;
      const hostileIds = (x: Report, status: (i: number) => Report['cases'][number]['status']): Report => ({
        ...x,
        cases: x.cases.map((c, i) => ({ ...c, id: `${c.id}${HOSTILE}`, status: status(i), message: `message${HOSTILE}` })),
      });
      const before = hostileIds(r, (i) => (i % 2 === 0 ? 'pass' : 'fail'));
      const after = hostileIds(r, (i) => (i % 2 === 0 ? 'fail' : i % 3 === 0 ? 'pass' : 'crash'));
      // One case only before, one only after: the new and removed sections.
      before.cases.push({ ...before.cases[0]!, id: `removed${HOSTILE}` });
      after.cases.push({ ...after.cases[0]!, id: `added${HOSTILE}` });
      old = at('old.json');
      now = at('new.json');
      other = at('other.json');
      writeFileSync(old, JSON.stringify({ ...before, summary: summaryOf(before) }));
      writeFileSync(now, JSON.stringify({ ...after, summary: summaryOf(after) }));
      writeFileSync(other, JSON.stringify({ ...after, implementation: { ...after.implementation, name: `other${HOSTILE}` }, summary: summaryOf(after) }));
    });

    it('diff, as text and as JSON', () => {
      const text = cli('diff', old, now);
      expect(text.status, text.stderr).toBe(1);
      expectInert(text);
      expect(text.stdout).toMatch(/^regressed \(\d+\):$/m);
      expect(text.stdout).toContain('removed\\u001b]0;pwned');
      const json = cli('diff', old, now, '--json');
      expectInert(json);
      expect((JSON.parse(json.stdout) as { added: { id: string }[] }).added.map((a) => a.id)).toEqual([`added${HOSTILE}`]);
    });

    it('merge, and its refusal of two implementations', () => {
      const merged = cli('merge', old, '-o', at('merged.json'), '--allow-partial');
      expect(merged.status, merged.stderr).toBe(0);
      expectInert(merged);
      const refused = cli('merge', now, other, '-o', at('refused.json'), '--allow-partial');
      expect(refused.status).toBe(2);
      expectInert(refused);
      expect(refused.stderr).toContain('merge reports of one implementation');
    });

    it('baseline, printed and written over a baseline of the same kind', () => {
      const printed = cli('baseline', now);
      expect(printed.status, printed.stderr).toBe(0);
      expectInert(printed);
      // Printed, the baseline is still the JSON it writes.
      expect(Object.keys(JSON.parse(printed.stdout) as object)).toContain(`added${HOSTILE}`);
      const file = at('written-baseline.json');
      writeFileSync(file, cli('baseline', old).stdout);
      const written = cli('baseline', now, '--write', file);
      expect(written.status, written.stderr).toBe(0);
      expectInert(written);
      expect(written.stdout).toMatch(/^ {2}removed .*\(now passes\)$/m);
    });

    it('matrix', () => {
      const r = cli('matrix', old, now, other);
      expect(r.status, r.stderr).toBe(0);
      expectInert(r);
      expect(r.stdout).toContain('otherred\\rOVERWRITTEN\\u0000');
    });
  });
});

function summaryOf(r: Report): Report['summary'] {
  const s: Report['summary'] = { total: r.cases.length, pass: 0, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 0 };
  for (const c of r.cases) s[c.status]++;
  return s;
}
