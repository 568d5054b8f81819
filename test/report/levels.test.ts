/**
 * The levels a run reached (SPEC LVL-1): each level is named with the
 * verdict of its own results, validation says "not declared" for a manifest
 * of the any level alone without `"validates": true` (LVL-2), and the
 * terminal, Markdown, HTML, JUnit, the JSON report and the badge say the same.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CaseResult, Level, Manifest, Report, Status } from '../../protocol/types.js';
import { levelsLine } from '../../report/text.js';
import { levelsReached } from '../../protocol/verdict.js';
import { cliWith, ROOT } from '../cli.js';

const result = (id: string, level: Level, status: Status): CaseResult => ({ id, kind: 'case', level, status, requirements: [], duration_ms: 0 }) as CaseResult;

function report(manifest: Partial<Manifest>, cases: CaseResult[], known: string[] = []): Report {
  const count = (s: Status): number => cases.filter((c) => c.status === s).length;
  return {
    kit: { name: 'ctxconform', version: '0', spec: 'v1' },
    implementation: { name: 'x', version: '1', capabilities: [], profiles: ['tiered'], ...manifest } as Manifest,
    summary: {
      total: cases.length,
      pass: count('pass'),
      fail: count('fail'),
      error: count('error'),
      timeout: count('timeout'),
      crash: count('crash'),
      flaky: 0,
      skip: count('skip'),
    },
    cases,
    ...(known.length > 0 ? { baseline: { file: 'b.json', known, stale: [] } as unknown as Report['baseline'] } : {}),
  };
}

describe('levelsReached', () => {
  it('a manifest of any alone: the any level by its results, validation not declared, no exact profile named', () => {
    const r = report({ profiles: ['any'] }, [result('any/a', 'any', 'pass'), result('validation/v', 'validation', 'skip')]);
    expect(levelsLine(r)).toBe('any design: PASS, validation: not declared');
  });

  it('"validates": true makes validation a declared level: skipped throughout, it is not run, and a failure there fails it alone', () => {
    const m = { profiles: ['any'], validates: true };
    expect(levelsLine(report(m, [result('any/a', 'any', 'pass'), result('validation/v', 'validation', 'skip')]))).toBe('any design: PASS, validation: not run');
    expect(levelsLine(report(m, [result('any/a', 'any', 'pass'), result('validation/v', 'validation', 'fail')]))).toBe('any design: PASS, validation: FAIL');
  });

  it('a tiered replica names the any level, tiered and validation, each with its own verdict', () => {
    const r = report({ profiles: ['tiered'] }, [
      result('any/a', 'any', 'pass'),
      result('tiers/t', 'profile', 'crash'),
      result('validation/v', 'validation', 'pass'),
    ]);
    expect(levelsReached(r).map((l) => [l.level, l.name, l.word, l.pass, l.failing])).toEqual([
      ['any', 'any design', 'PASS', 1, 0],
      ['profile', 'tiered', 'FAIL', 0, 1],
      ['validation', 'validation', 'PASS', 1, 0],
    ]);
  });

  it('a failure the baseline knows leaves its level passing with known failures only', () => {
    const r = report({ profiles: ['tiered'] }, [result('any/a', 'any', 'pass'), result('tiers/t', 'profile', 'fail')], ['tiers/t']);
    expect(levelsLine(r)).toBe('any design: PASS, tiered: PASS (known failures only), validation: not run');
  });

  it('the contract is named only when its clauses ran', () => {
    expect(levelsLine(report({ profiles: ['tiered'] }, [result('contract/c', 'contract', 'pass')]))).toBe(
      'any design: not run, tiered: not run, validation: not run, contract: PASS',
    );
  });
});

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-levels-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Each place a run names its levels, read back from the terminal and the files it wrote. */
function levelsEverywhere(
  name: string,
  impl: string,
): { terminal?: string; markdown?: string; html?: string; junit?: string; json: string; badge: string; status: number | null } {
  const dir = join(tmp, name);
  const r = cliWith({}, 'run', '--stdio', impl, '--properties', '20', '--reports-dir', dir);
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  const json = JSON.parse(read('ctxconform.json')) as Report;
  return {
    terminal: /^levels: (.*)$/m.exec(r.stdout)?.[1],
    markdown: /^Levels: (.*)$/m.exec(read('summary.md'))?.[1],
    html: /id="levels">Levels: ([^<]*)</.exec(read('report.html'))?.[1],
    junit: /<property name="levels" value="([^"]*)"/.exec(read('junit.xml'))?.[1],
    json: (json.levels ?? []).map((l) => `${l.name}: ${l.word}`).join(', '),
    badge: (JSON.parse(read('badge.json')) as { label: string }).label,
    status: r.status,
  };
}

describe('every report names the same levels', () => {
  it('a wrapper of another design that passes: any design PASS, validation not declared, a badge of the any level', () => {
    const w = levelsEverywhere('pass', `node ${join(ROOT, 'adapters/examples/any-design/wrapper.mjs')}`);
    const line = 'any design: PASS, validation: not declared';
    expect(w).toEqual({ terminal: line, markdown: line, html: line, junit: line, json: line, badge: 'conformance (any design)', status: 0 });
  }, 120_000);

  it('a design that keeps pinned blocks past the budget fails the any level, and says so in each', () => {
    const w = levelsEverywhere('fail', `node ${join(ROOT, 'test/fixtures/designs/pinned-kept.mjs')}`);
    const line = 'any design: FAIL, validation: not declared';
    expect(w).toEqual({ terminal: line, markdown: line, html: line, junit: line, json: line, badge: 'conformance (any design)', status: 1 });
  }, 120_000);
});
