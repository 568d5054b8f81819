/**
 * `ctxconform replay` on recorded-looking traffic (bench/replay-data.ts):
 *   - throughput against the reference in process, each request sent twice (the
 *     default: determinism checked) and once (--once);
 *   - throughput against the reference over stdio (a process speaking PROTO-3),
 *     concurrency 1 and 4 (the default);
 *   - the whole command on 100,000 and on 1,000,000 requests in a child process,
 *     its peak resident memory read from /proc (VmHWM) while it runs: memory
 *     must not grow with the number of requests.
 * Numbers are printed, never asserted.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referenceImplementation } from '../adapters/reference.js';
import { replay } from '../conformance/replay/run.js';
import { openImplementation } from '../conformance/runner/open.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { writeRecorded } from './replay-data.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-replay-bench-'));
const line = (label: string, s: string): void => console.log(`${label.padEnd(52)} ${s}`);
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function traffic(count: number): Promise<string> {
  const file = join(tmp, `traffic-${count}.jsonl.gz`);
  const t0 = performance.now();
  const raw = await writeRecorded(file, count);
  line(`generated ${count.toLocaleString('en-US')} requests`, `${mib(raw)} of JSON lines, ${mib(statSync(file).size)} gzip, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return file;
}

async function rate(impl: Implementation, manifest: Manifest, file: string, twice: boolean, concurrency: number): Promise<string> {
  const t0 = performance.now();
  const r = await replay({ sources: [{ path: file, label: 'bench' }], impl, manifest, timeoutMs: 30_000, concurrency, twice, shrink: 0, maxListed: 1000 });
  const s = (performance.now() - t0) / 1000;
  if (r.summary.pass !== r.summary.total) throw new Error(`bench replay not clean: ${JSON.stringify(r.summary)}`);
  return `${Math.round(r.summary.total / s).toLocaleString('en-US')} requests/s (${r.summary.total.toLocaleString('en-US')} in ${s.toFixed(1)} s)`;
}

/** The command in a child process; its peak resident set from /proc while it runs (Linux). */
function peakOfCommand(args: string[]): Promise<{ peakKiB: number | undefined; summary: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/ctxconform.mjs', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    let peak: number | undefined;
    const status = `/proc/${child.pid}/status`;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(status, 'utf8'));
        if (m) peak = Math.max(peak ?? 0, Number(m[1]));
      } catch {
        // Gone between two polls: the last reading stands (VmHWM only grows).
      }
    }, 100);
    child.on('exit', () => {
      clearInterval(poll);
      resolve({ peakKiB: peak, summary: out.split('\n').find((l) => /^(PASS|FAIL|NOTHING TESTED|INTERRUPTED)[^:]*: \d+ pass/.test(l)) ?? out.trim().split('\n').pop() ?? '' });
    });
  });
}

const small = await traffic(50_000);
const reference = referenceImplementation();
const manifest = await reference.describe();
line('in process, reference, sent twice (default)', await rate(reference, manifest, small, true, 1));
line('in process, reference, sent once (--once)', await rate(reference, manifest, small, false, 1));

for (const concurrency of [1, 4]) {
  const o = await openImplementation({ stdio: `"${process.execPath}" --import tsx "${join(root, 'test/fixtures/replay/reference-stdio.ts')}"`, timeoutMs: 30_000, concurrency });
  line(`stdio, reference process, sent twice, concurrency ${concurrency}`, await rate(o.impl, o.manifest, small, true, concurrency));
  await o.impl.close();
}

if (!existsSync('/proc/self/status')) line('peak memory', 'n/a: needs /proc (Linux)');
else {
  for (const count of [100_000, 1_000_000]) {
    const file = await traffic(count);
    const { peakKiB, summary } = await peakOfCommand(['replay', file, '--quiet']);
    line(`replay ${count.toLocaleString('en-US')} requests (child process)`, `peak RSS ${peakKiB === undefined ? 'n/a' : mib(peakKiB * 1024)}; ${summary.replace(/^PASS: \d+ pass, 0 fail, 0 error, 0 timeout, 0 crash, 0 skip of /, '')}`);
    rmSync(file, { force: true });
  }
}
rmSync(tmp, { recursive: true, force: true });
