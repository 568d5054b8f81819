/**
 * A run always writes its reports, whatever the implementation does: one that hangs on an
 * ordinary request, one that crashes, one that speaks garbage, one whose answers carry a member
 * nested 300,000 deep (about 600 KB, under --max-body), over stdio and over HTTP, with the
 * properties. Each run ends with its verdict, every report is written, the JSON report is one
 * Python's json can read, and nothing the kit says is a crash of its own. The peers are the
 * Python example misbehaving (test/fixtures/peers/), served by Python's own http.server.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWith, ROOT } from '../cli.js';

const python = spawnSync('python3', ['--version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'ctxconform-reports-always-'));
const REPORTS = ['ctxconform.json', 'junit.xml', 'summary.md', 'report.html', 'badge.svg', 'badge.json'];
let server: ChildProcess | undefined;
let url = '';

beforeAll(async () => {
  if (!python) return;
  server = spawn('python3', ['test/fixtures/peers/http_server.py', '0', '--nodelay', '--deep', '300000'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((done) => createInterface({ input: server!.stdout! }).once('line', done));
  url = `http://127.0.0.1:${/listening (\d+)/.exec(line)![1]}`;
});
afterAll(() => {
  server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** The run's exit status, what it printed, and the reports it left in its own folder. */
function run(name: string, ...target: string[]) {
  const out = join(dir, name);
  const r = cliWith({ timeout: 240_000 }, 'run', ...target, '--properties', '5', '--timeout', '1500', '--reports-dir', out);
  return { ...r, out, written: REPORTS.filter((f) => existsSync(join(out, f))) };
}

const IMPLEMENTATIONS: [string, string[]][] = [
  ['hangs on a request whose budget is 0', ['--stdio', 'python3 test/fixtures/peers/misbehaving.py hang-zero']],
  ['crashes at its 30th request', ['--stdio', 'python3 test/fixtures/peers/misbehaving.py crash']],
  ['speaks garbage every 7th answer', ['--stdio', 'python3 test/fixtures/peers/misbehaving.py garbage']],
  ['answers with a member nested 300,000 deep, over stdio', ['--stdio', 'python3 test/fixtures/peers/misbehaving.py deep 300000']],
];

describe.skipIf(!python)('every report, whatever the implementation does', () => {
  it.each([...IMPLEMENTATIONS, ['answers with a member nested 300,000 deep, over HTTP', []] as [string, string[]]])(
    'an implementation that %s',
    (what, target) => {
      const r = run(what.replace(/\W+/g, '-'), ...(target.length > 0 ? target : ['--http', url]));
      // A failing verdict (1), never a crash of the kit (a signal, or a stack trace on stderr).
      expect(r.status, r.stderr.slice(-2000)).toBe(1);
      expect(r.stderr).not.toMatch(/TypeError|RangeError|Fatal|at .*\.js:\d+/);
      expect(r.written).toEqual(REPORTS);
      expect(r.stdout).toMatch(/^FAIL: \d+ pass/m);
      // The JSON report is readable by Python's json, which gives up at about 1,000 levels.
      const read = spawnSync(
        'python3',
        ['-c', 'import json,sys; r=json.load(open(sys.argv[1])); print(r["summary"]["total"])', join(r.out, 'ctxconform.json')],
        {
          encoding: 'utf8',
        },
      );
      expect(read.status, read.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(r.out, 'ctxconform.json'), 'utf8'));
      expect(Number(read.stdout.trim())).toBe(report.summary.total);
      expect(report.run.likely_cause_failed).toBeUndefined();
    },
    300_000,
  );
});
