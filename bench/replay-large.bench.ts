/**
 * One very large recorded request: 100,000 blocks (about 28 MB of JSON),
 * replayed by the whole command (`ctxconform replay FILE`, a child process)
 * with default shrinking against a build that gets it wrong (its estimate
 * divides by 3, test/fixtures/broken/chars-per-token-3.ts), in process
 * (`--module`) and over stdio; and the same request against the reference,
 * which passes, for the cost of judging it alone. docs/replay.md promises at
 * most 300 tries or 20 s of shrinking per request, and the issue asks that
 * such a request replays within 2 minutes: the wall time is printed, never
 * asserted.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prng } from './prng.js';
import { SOURCES } from './replay-data.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-large-bench-'));
const line = (label: string, s: string): void => console.log(`${label.padEnd(60)} ${s}`);
const BLOCKS = 100_000;
const WORDS = [
  'the',
  'user',
  'prefers',
  'metric',
  'units',
  'café',
  'deploys',
  'on',
  'friday',
  'never',
  'ticket',
  'résumé',
  'escalate',
  'after',
  'two',
  'retries',
  'budget',
  'approved',
];

/** A request of `count` blocks of about 250 characters each, a budget that lets in about a tenth of them. */
function largeRequest(count: number): Record<string, unknown> {
  const r = prng(26);
  const blocks = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    let content = '';
    while (content.length < 240) content += (content ? ' ' : '') + WORDS[Math.floor(r() * WORDS.length)];
    total += content.length;
    blocks.push({
      block_id: `m-${i}`,
      source: SOURCES[Math.floor(r() * SOURCES.length)],
      content,
      priority: Math.floor(r() * 10) / 2,
      created_at: 1_700_000_000 - Math.floor(r() * 1000),
      ttl_seconds: r() < 0.2 ? 500 : 0,
    });
  }
  return { now: 1_700_000_000, budget: Math.floor(total / 40), blocks };
}

/** The command in a child process: its wall time and its verdict line. */
function timed(args: string[]): Promise<{ seconds: number; verdict: string; shrunk: string }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['bin/ctxconform.mjs', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.on('exit', () => {
      const verdict = out.split('\n').find((l) => /^(PASS|FAIL|NOTHING TESTED|INTERRUPTED)[^:]*: \d+ pass/.test(l)) ?? out.trim().split('\n').pop() ?? '';
      const shrunk = /shrunk in (\d+ steps? \(\d+ tr(?:y|ies)\))/.exec(out)?.[1] ?? 'not shrunk';
      const stopped = /shrinking stopped ([^,]+),/.exec(out)?.[1];
      resolve({
        seconds: (performance.now() - t0) / 1000,
        verdict: verdict.replace(/ of 1 requests.*/, ''),
        shrunk: stopped ? `${shrunk}, stopped ${stopped}` : shrunk,
      });
    });
  });
}

const file = join(tmp, 'large.jsonl');
const t0 = performance.now();
writeFileSync(file, JSON.stringify(largeRequest(BLOCKS)) + '\n');
line(
  `generated one request of ${BLOCKS.toLocaleString('en-US')} blocks`,
  `${(statSync(file).size / 2 ** 20).toFixed(1)} MiB of JSON in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const broken = join(root, 'test/fixtures/broken/chars-per-token-3.ts');
const reference = await timed(['replay', file, '--quiet']);
line('replay, the reference (passes; judging only)', `${reference.seconds.toFixed(1)} s; ${reference.verdict}`);
const moduleRun = await timed(['replay', file, '--module', broken, '--quiet']);
line('replay --module broken build, default shrinking', `${moduleRun.seconds.toFixed(1)} s; ${moduleRun.shrunk}; ${moduleRun.verdict}`);
const stdio = `"${process.execPath}" --import tsx "${join(root, 'test/fixtures/replay/module-stdio.ts')}" "${broken}"`;
const stdioRun = await timed(['replay', file, '--stdio', stdio, '--quiet']);
line('replay --stdio broken build, default shrinking', `${stdioRun.seconds.toFixed(1)} s; ${stdioRun.shrunk}; ${stdioRun.verdict}`);
line("within 2 minutes (the issue's goal)", [moduleRun, stdioRun].every((r) => r.seconds <= 120) ? 'yes' : 'no');
rmSync(tmp, { recursive: true, force: true });
