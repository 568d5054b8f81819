/**
 * `ctxconform shadow` in front of `ctxconform serve` (each its own process,
 * as a vendor runs them): the latency the proxy adds at p50 and p99, and its
 * throughput against calling the upstream directly, at 1, 16 and 64
 * requests in flight, with sampling at 0, 0.1 and 1.0. Goal on this machine:
 * p99 added at most 1 ms at 16 in flight, and throughput at least 90% of
 * direct with sampling 0.1. Then the shadow's resident memory after a long
 * run at sampling 1.0, read from /proc (VmRSS), against after a short one.
 * Numbers are printed, never asserted.
 *
 *   node --import tsx bench/shadow.bench.ts [seconds]   (per measurement, default 2)
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(root, 'bin/ctxconform.mjs');
const seconds = Number(process.argv[2] ?? 2);
const IN_FLIGHT = [1, 16, 64];
const SAMPLES = [0, 0.1, 1];
const GOAL_P99_ADDED_MS = 1;
const GOAL_THROUGHPUT = 0.9;

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
/** Agent-like requests: a dozen recalled blocks of a few sentences each, a few at their expiry instant. */
const bodies = Array.from({ length: 256 }, (_, i) =>
  JSON.stringify({
    now: 1060,
    budget: 200 + (i % 9) * 50,
    blocks: Array.from({ length: 12 }, (_, k) => ({
      block_id: `m-${i}-${k}`,
      source: ['notes', 'docs', 'chat', 'memory'][k % 4],
      content: Array.from({ length: 20 + ((i + k) % 30) }, (_, w) => WORDS[(i * 7 + k * 3 + w) % WORDS.length]).join(' '),
      priority: (i + k) % 7,
      created_at: 1000,
      ttl_seconds: k === 0 && i % 5 === 0 ? 60 : 0,
    })),
  }),
);

function started(args: string[], re: RegExp): Promise<{ p: ChildProcess; url: string }> {
  const p = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, CI: 'true' } });
  return new Promise((resolve, reject) => {
    let text = '';
    p.stdout!.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      const m = re.exec(text);
      if (m) resolve({ p, url: m[1]! });
    });
    p.once('exit', (code) => reject(new Error(`ctxconform ${args[0]} ended (${code}) before listening: ${text}`)));
  });
}

const stopped = (p: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });

interface Measured {
  p50: number;
  p99: number;
  perSecond: number;
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** `inFlight` loops posting the requests to `url` for `ms`; latency per request and requests per second. */
async function measure(url: string, inFlight: number, ms: number): Promise<Measured> {
  const agent = new Agent({ connections: inFlight, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const post = async (i: number): Promise<void> => {
    const r = await request(`${url}/assemble`, {
      method: 'POST',
      dispatcher: agent,
      body: bodies[i % bodies.length]!,
      headers: { 'content-type': 'application/json' },
    });
    await r.body.arrayBuffer();
  };
  // Warm the connections and both processes' code.
  await Promise.all(Array.from({ length: inFlight * 4 }, (_, i) => post(i)));
  let n = 0;
  const t0 = performance.now();
  const loop = async (): Promise<void> => {
    while (performance.now() - t0 < ms) {
      const i = n++;
      const s = performance.now();
      await post(i);
      latencies.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, loop));
  const elapsed = performance.now() - t0;
  await agent.close();
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), perSecond: (latencies.length / elapsed) * 1000 };
}

function rssMiB(pid: number): number {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return NaN;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const ms2 = (x: number): string => `${x.toFixed(2)} ms`;

async function main(): Promise<void> {
  const upstream = await started(['serve', '--port', '0'], /listening on (http:\/\/\S+) /);
  const rows: string[][] = [['in flight', 'sample', 'direct p50', 'direct p99', 'added p50', 'added p99', 'direct/s', 'shadow/s', 'share']];
  const goals: string[] = [];
  try {
    for (const sample of SAMPLES) {
      const shadow = await started(
        ['shadow', '--upstream', upstream.url, '--listen', '127.0.0.1:0', '--sample', String(sample), '--quiet'],
        /listening on (http:\/\/\S+) ->/,
      );
      try {
        for (const inFlight of IN_FLIGHT) {
          // Direct and through the shadow back to back, so both see the same machine.
          const direct = await measure(upstream.url, inFlight, seconds * 1000);
          const shadowed = await measure(shadow.url, inFlight, seconds * 1000);
          const share = shadowed.perSecond / direct.perSecond;
          const added99 = shadowed.p99 - direct.p99;
          rows.push([
            String(inFlight),
            String(sample),
            ms2(direct.p50),
            ms2(direct.p99),
            ms2(shadowed.p50 - direct.p50),
            ms2(added99),
            direct.perSecond.toFixed(0),
            shadowed.perSecond.toFixed(0),
            `${(share * 100).toFixed(0)}%`,
          ]);
          if (inFlight === 16 && sample === 0.1) {
            goals.push(
              `p99 added at 16 in flight, sampling 0.1: ${ms2(added99)} (goal <= ${GOAL_P99_ADDED_MS} ms): ${added99 <= GOAL_P99_ADDED_MS ? 'met' : 'NOT met'}`,
            );
            goals.push(
              `throughput at 16 in flight, sampling 0.1: ${(share * 100).toFixed(0)}% of direct (goal >= ${GOAL_THROUGHPUT * 100}%): ${share >= GOAL_THROUGHPUT ? 'met' : 'NOT met'}`,
            );
          }
        }
        if (sample === 1) {
          // Memory: resident size after the runs above, then after as many again.
          const before = rssMiB(shadow.p.pid!);
          await measure(shadow.url, 64, seconds * 3000);
          goals.push(
            `shadow resident memory at sampling 1.0: ${before.toFixed(0)} MiB, then ${rssMiB(shadow.p.pid!).toFixed(0)} MiB after ${seconds * 3} s more at 64 in flight`,
          );
        }
      } finally {
        await stopped(shadow.p);
      }
    }
  } finally {
    await stopped(upstream.p);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) console.log(`  ${r.map((cell, c) => cell.padStart(widths[c]!)).join('  ')}`);
  for (const g of goals) console.log(g);
}

await main();
