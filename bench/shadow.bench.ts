/**
 * `ctxconform shadow` in front of `ctxconform serve` (each its own process,
 * as a vendor runs them), side by side with the floor: a bare Node HTTP proxy
 * that only streams (bench/proxy-floor.mjs). At 1, 16 and 64 requests in
 * flight: calling the upstream directly, through the floor, and through the
 * shadow sampling 0, 0.01, 0.1 and 1, each with its throughput and the p50
 * and p99 it adds over the floor. Goals (issue 45): at 10% sampled, at 16 and
 * 64 in flight, at least 0.9 of the floor's throughput and at most 1 ms p99
 * over it; at 100% sampled, at least 0.8. Then the shadow's peak resident
 * memory (VmHWM) with 50 KB bodies at 100% sampled and 64 in flight, against
 * its bound (--queue-bytes) plus a stated base, and how long SIGTERM takes
 * under that load. Numbers are printed, never asserted.
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
const SAMPLES = [0, 0.01, 0.1, 1];
const GOAL_P99_ADDED_MS = 1;
const GOAL_THROUGHPUT_10 = 0.9;
const GOAL_THROUGHPUT_100 = 0.8;
/** The shadow's bound on the samples waiting for the judge in the memory run, and the base a Node process with the kit loaded takes besides. */
const QUEUE_BYTES = 64 * 1024 * 1024;
const BASE_MIB = 150;

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

/** `node SCRIPT ARGS...` (the CLI unless a script is named), once its stdout says where it listens. */
function started(args: string[], re: RegExp, script: string = CLI): Promise<{ p: ChildProcess; url: string }> {
  const p = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, CI: 'true' } });
  return new Promise((resolve, reject) => {
    let text = '';
    p.stdout!.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      const m = re.exec(text);
      if (m) resolve({ p, url: m[1]! });
    });
    p.once('exit', (code) => reject(new Error(`${script} ${args[0]} ended (${code}) before listening: ${text}`)));
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

/** Requests of about 50 KB: forty blocks of about 1,250 characters. */
const large = Array.from({ length: 32 }, (_, i) =>
  JSON.stringify({
    now: 1060,
    budget: 4000,
    blocks: Array.from({ length: 40 }, (_, k) => ({
      block_id: `l-${i}-${k}`,
      source: 'docs',
      content: Array.from({ length: 180 }, (_, w) => WORDS[(i * 11 + k * 5 + w) % WORDS.length]).join(' '),
      priority: (i + k) % 7,
    })),
  }),
);

/** `inFlight` loops posting the requests to `url` for `ms`; latency per request and requests per second. */
async function measure(url: string, inFlight: number, ms: number, payloads: readonly string[] = bodies): Promise<Measured> {
  const agent = new Agent({ connections: inFlight, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const post = async (i: number): Promise<void> => {
    const r = await request(`${url}/assemble`, {
      method: 'POST',
      dispatcher: agent,
      body: payloads[i % payloads.length]!,
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

/** A process's resident memory from /proc: `VmRSS` now, or `VmHWM` its peak. */
function memMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return NaN;
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(file, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const ms2 = (x: number): string => `${x.toFixed(2)} ms`;

const shadowArgs = (upstream: string, sample: number, more: string[] = []): string[] => [
  'shadow',
  '--upstream',
  upstream,
  '--listen',
  '127.0.0.1:0',
  '--sample',
  String(sample),
  '--quiet',
  ...more,
];
const SHADOW_LISTENING = /listening on (http:\/\/\S+) ->/;

async function main(): Promise<void> {
  const upstream = await started(['serve', '--port', '0'], /listening on (http:\/\/\S+) /);
  const floor = await started([upstream.url], /listening on (http:\/\/\S+) ->/, join(root, 'bench/proxy-floor.mjs'));
  const rows: string[][] = [['in flight', 'through', 'p50', 'p99', 'p50 over floor', 'p99 over floor', 'per s', 'of floor']];
  const goals: string[] = [];
  try {
    for (const inFlight of IN_FLIGHT) {
      // Back to back in one pass, so all of them see the same machine.
      const direct = await measure(upstream.url, inFlight, seconds * 1000);
      const base = await measure(floor.url, inFlight, seconds * 1000);
      const row = (name: string, m: Measured): string[] => [
        String(inFlight),
        name,
        ms2(m.p50),
        ms2(m.p99),
        ms2(m.p50 - base.p50),
        ms2(m.p99 - base.p99),
        m.perSecond.toFixed(0),
        `${((m.perSecond / base.perSecond) * 100).toFixed(0)}%`,
      ];
      rows.push(row('direct', direct), row('floor', base));
      for (const sample of SAMPLES) {
        // A shadow of its own for each: one measured earlier may still be judging its backlog, at the next one's cost.
        const shadow = await started(shadowArgs(upstream.url, sample), SHADOW_LISTENING);
        let m: Measured;
        try {
          // A second of traffic first: the judge loads its modules at its first sample.
          await measure(shadow.url, inFlight, 1000);
          m = await measure(shadow.url, inFlight, seconds * 1000);
        } finally {
          await stopped(shadow.p);
        }
        rows.push(row(`shadow ${sample}`, m));
        const share = m.perSecond / base.perSecond;
        if (inFlight >= 16 && sample === 0.1) {
          goals.push(
            `at ${inFlight} in flight, 10% sampled: ${(share * 100).toFixed(0)}% of the floor's throughput (goal ` +
              `>= ${GOAL_THROUGHPUT_10 * 100}%): ${share >= GOAL_THROUGHPUT_10 ? 'met' : 'NOT met'}; p99 ${ms2(m.p99 - base.p99)} ` +
              `over it (goal <= ${GOAL_P99_ADDED_MS} ms): ${m.p99 - base.p99 <= GOAL_P99_ADDED_MS ? 'met' : 'NOT met'}`,
          );
        }
        if (inFlight >= 16 && sample === 1) {
          goals.push(
            `at ${inFlight} in flight, 100% sampled: ${(share * 100).toFixed(0)}% of the floor's throughput ` +
              `(goal >= ${GOAL_THROUGHPUT_100 * 100}%): ${share >= GOAL_THROUGHPUT_100 ? 'met' : 'NOT met'}`,
          );
        }
      }
    }
    // Memory and stopping: 50 KB bodies, every one sampled, 64 in flight, a fresh shadow.
    const big = await started(shadowArgs(upstream.url, 1, ['--queue-bytes', String(QUEUE_BYTES)]), SHADOW_LISTENING);
    const load = measure(big.url, 64, seconds * 3000, large);
    const m = await load;
    const peak = memMiB(big.p.pid!, 'VmHWM');
    const bound = QUEUE_BYTES / 1024 / 1024 + BASE_MIB;
    goals.push(
      `peak resident memory, 50 KB bodies, 100% sampled, 64 in flight (${m.perSecond.toFixed(0)}/s): ${peak.toFixed(0)} ` +
        `MiB (bound: --queue-bytes ${QUEUE_BYTES / 1024 / 1024} MiB + ${BASE_MIB} MiB base = ${bound} MiB): ${peak <= bound ? 'within' : 'OVER'}`,
    );
    // SIGTERM in the middle of that load: until the process has exited, its reports written.
    const again = measure(big.url, 64, seconds * 1000, large).catch(() => undefined);
    await new Promise((r) => setTimeout(r, (seconds * 1000) / 2));
    const t0 = performance.now();
    await stopped(big.p);
    goals.push(`SIGTERM under that load to exit: ${(performance.now() - t0).toFixed(0)} ms (SPEC SHD-5: within 2000 ms)`);
    await again;
  } finally {
    await stopped(floor.p);
    await stopped(upstream.p);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const r of rows) console.log(`  ${r.map((cell, c) => cell.padStart(widths[c]!)).join('  ')}`);
  for (const g of goals) console.log(g);
}

await main();
