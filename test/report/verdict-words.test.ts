/**
 * One set of verdict words: the terminal's last line, the Markdown summary,
 * the HTML verdict and the JUnit `verdict` property say the same word for the
 * same run (PASS, PASS (known failures only), PASS (deviations by design
 * only), FAIL, NOTHING TESTED, INTERRUPTED), and a run with declared
 * constants says `(tiered with declared constants)` after it in each (SPEC
 * DECL-5). And the progress a command prints counts what its summary counts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMemoryService } from '../fixtures/memory-service/server.js';
import { cliWith, ROOT } from '../cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-words-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string): string => join(tmp, name);
const CASES = join(ROOT, 'test/fixtures/reports/cases');
const BROKEN = join(ROOT, 'test/fixtures/reports/broken-impl.ts');
const TUNED = join(ROOT, 'test/fixtures/declared/tuned.ts');
const WORD = /^(PASS \(known failures only\)|PASS \(deviations by design only\)|PASS|FAIL|NOTHING TESTED|INTERRUPTED)( \(tiered with declared constants\))?/;

/** The verdict word in each place: the terminal's verdict line, Markdown, HTML, JUnit. */
function words(name: string, args: string[]): { terminal: string; markdown: string; html: string; junit: string; status: number | null } {
  const files = { json: at(`${name}.json`), markdown: at(`${name}.md`), html: at(`${name}.html`), junit: at(`${name}.xml`) };
  const r = cliWith({}, ...args, '--json', files.json, '--markdown', files.markdown, '--html', files.html, '--junit', files.junit, '--quiet');
  const line = r.stdout
    .split('\n')
    .reverse()
    .find((l) => WORD.test(l) && /: \d+ pass, /.test(l));
  const word = (text: string | undefined, where: string): string => {
    const m = text === undefined ? null : WORD.exec(text);
    if (!m) throw new Error(`no verdict word in the ${where}: ${text}\n${r.stdout}\n${r.stderr}`);
    return m[0];
  };
  // The terminal may add why in parentheses after the word (a stale entry, what was skipped): the word is what the pattern takes.
  const terminal = word(line, 'terminal');
  const md = /^\*\*(.*)\*\*$/m.exec(readFileSync(files.markdown, 'utf8'))?.[1];
  const html = /id="verdict">([^<]*)</.exec(readFileSync(files.html, 'utf8'))?.[1];
  const junit = /<property name="verdict" value="([^"]*)"/.exec(readFileSync(files.junit, 'utf8'))?.[1];
  return { terminal, markdown: word(md, 'Markdown'), html: word(html, 'HTML'), junit: word(junit, 'JUnit'), status: r.status };
}

const same = (w: ReturnType<typeof words>, expected: string): void => {
  expect({ terminal: w.terminal, markdown: w.markdown, html: w.html, junit: w.junit }).toEqual({
    terminal: expected,
    markdown: expected,
    html: expected,
    junit: expected,
  });
};

/** The failing run, made once: the FAIL test reads its verdict words, the baseline test makes its baseline from its JSON report. */
let failing: ReturnType<typeof words> | undefined;
const failingRun = (): ReturnType<typeof words> => (failing ??= words('fail', ['run', '--cases', CASES, '--properties', '0', '--module', BROKEN]));

describe('the verdict word is the same in the terminal, Markdown, HTML and JUnit', () => {
  it('PASS', () => same(words('pass', ['run', '--cases', CASES, '--properties', '0']), 'PASS'));

  it('FAIL', () => {
    const w = failingRun();
    same(w, 'FAIL');
    expect(w.status).toBe(1);
  });

  it('PASS (known failures only), and PASS (deviations by design only)', () => {
    expect(failingRun().status).toBe(1);
    expect(cliWith({}, 'baseline', at('fail.json'), '--write', at('known-baseline.json')).status).toBe(0);
    same(
      words('known', ['run', '--cases', CASES, '--properties', '0', '--module', BROKEN, '--baseline', at('known-baseline.json')]),
      'PASS (known failures only)',
    );
    const entries = JSON.parse(readFileSync(at('known-baseline.json'), 'utf8')) as Record<string, { kind: string; reason?: string }>;
    for (const e of Object.values(entries)) Object.assign(e, { kind: 'by-design', reason: 'decided' });
    writeFileSync(at('designed-baseline.json'), JSON.stringify(entries));
    same(
      words('designed', ['run', '--cases', CASES, '--properties', '0', '--module', BROKEN, '--baseline', at('designed-baseline.json')]),
      'PASS (deviations by design only)',
    );
  });

  it('NOTHING TESTED, in the reports too (it fails the run)', () => {
    const w = words('nothing', ['run', '--cases', 'none', '--properties', '0']);
    same(w, 'NOTHING TESTED');
    expect(w.status).toBe(1);
  });

  it('with declared constants: PASS (tiered with declared constants), never plain PASS (DECL-5)', () => {
    same(words('declared', ['run', '--cases', 'none', '--properties', '20', '--module', TUNED]), 'PASS (tiered with declared constants)');
  });
});

describe('progress counts what the summary counts', () => {
  it('run: the progress ends at the total of the summary, properties one each', () => {
    const r = cliWith({}, 'run', '--cases', CASES, '--properties', '5');
    const last = [...r.stderr.matchAll(/^progress: (\d+)\/(\d+)/gm)].pop();
    const summary = /: (\d+) pass, (\d+) fail, (\d+) error, (\d+) timeout, (\d+) crash, (\d+) skip of (\d+) in /.exec(r.stdout);
    expect(last, r.stderr).toBeDefined();
    expect(summary, r.stdout).not.toBeNull();
    expect([Number(last![1]), Number(last![2])]).toEqual([Number(summary![7]), Number(summary![7])]);
  });

  it("replay: each file's last progress line is 100% with the counts of the results judged, the last one the summary's", () => {
    const request = (budget: number) => JSON.stringify({ now: 1, budget, blocks: [{ block_id: 'a', source: 'memory', content: 'twelve chars', priority: 1 }] });
    writeFileSync(at('p1.jsonl'), [request(0), request(9), request(1)].join('\n') + '\n');
    writeFileSync(at('p2.jsonl'), [request(2), '{broken', request(9), request(0), request(9), request(9)].join('\n') + '\n');
    const r = cliWith({}, 'replay', at('p1.jsonl'), at('p2.jsonl'), '--module', join(ROOT, 'test/fixtures/broken/chars-per-token-3.ts'), '--shrink', '0');
    const progress = r.stderr.split('\n').filter((l) => l.startsWith('replay '));
    const lastOf = (file: string) => progress.filter((l) => l.includes(`of ${file}:`)).pop();
    const summary = /: (\d+) pass, (\d+) fail, (\d+) error, (\d+) timeout, (\d+) crash, (\d+) skip of (\d+) requests/.exec(r.stdout)!;
    const failing = Number(summary[2]) + Number(summary[3]) + Number(summary[4]) + Number(summary[5]);
    expect(lastOf('p1.jsonl')).toMatch(/^replay 100% of p1\.jsonl: 3 results, \d+ failed/);
    expect(lastOf('p2.jsonl')).toBe(lastOf('p2.jsonl')!.replace(/: \d+ results, \d+ failed/, `: ${summary[7]} results, ${failing} failed`));
    expect(lastOf('p2.jsonl')).toMatch(/^replay 100% of p2\.jsonl: 9 results/);
  });
});

describe('progress counts the contract clauses of a memory service too', () => {
  it('run --memory-api: the progress ends at the summary total, golden cases and clauses together', async () => {
    const service = await startMemoryService({ apiKey: 'k' });
    try {
      const r = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [join(ROOT, 'bin/ctxconform.mjs'), 'run', '--memory-api', service.url, '--api-key', 'k', '--properties', '3', '--cases', CASES],
          { cwd: ROOT, env: { ...process.env, CI: 'true' } },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
        child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
        child.on('exit', () => resolve({ stdout, stderr }));
      });
      const last = [...r.stderr.matchAll(/^progress: (\d+)\/(\d+)/gm)].pop();
      const summary = / skip of (\d+) in /.exec(r.stdout);
      expect(summary, r.stdout).not.toBeNull();
      expect(last, r.stderr).toBeDefined();
      expect([Number(last![1]), Number(last![2])]).toEqual([Number(summary![1]), Number(summary![1])]);
    } finally {
      await service.close();
    }
  });
});
