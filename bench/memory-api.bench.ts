/**
 * The memory-api contract run (SPEC section 16) against the test suite's fake
 * memory service in its retrieving mode: the directed scenarios + 100 random
 * exchanges, each ingest, hydrate and three assemble-context calls (a fourth
 * when the filters keep a memory out; goal < 1 s for the run). The fake runs in its own process, as any service under test does:
 * sharing the runner's event loop would count its work twice. Then the whole
 * `ctxconform run --memory-api` command, start-up included. Numbers are
 * printed, never asserted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DIRECTED, runContract } from '../contract/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNS = 100;
const REPS = 5;
const line = (label: string, s: string): void => console.log(`${label.padEnd(52)} ${s}`);

const fake = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/memory-service/main.ts', '--port', '0'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    fake.stdout.on('data', (d: Buffer) => {
      out += String(d);
      const m = /http:\/\/[\d.]+:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    fake.on('exit', (code) => reject(new Error(`the fake memory service exited (${code}) before listening`)));
  });

  const times: number[] = [];
  let tested = '';
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    const results = await runContract({ url, timeoutMs: 10_000, runs: RUNS, seed: 1 });
    times.push(performance.now() - t0);
    const notPassing = results.filter((r) => r.status !== 'pass');
    if (notPassing.length) throw new Error(`bench run not clean: ${notPassing.map((r) => `${r.id} ${r.status}: ${r.message}`).join('; ')}`);
    tested = results.map((r) => `${r.requirements[0]} ${r.exchanges_tested}`).join(', ');
  }
  times.sort((a, b) => a - b);
  const exchanges = DIRECTED.length + RUNS;
  line(
    `contract run, ${DIRECTED.length} directed + ${RUNS} random exchanges`,
    `best ${times[0]!.toFixed(0)} ms, median ${times[Math.floor(REPS / 2)]!.toFixed(0)} ms (goal < 1000 ms)`,
  );
  line(
    '  per exchange (ingest, hydrate, 3 or 4 assemble-context)',
    `${(times[0]! / exchanges).toFixed(2)} ms, ${Math.round((exchanges * 1000) / times[0]!)} exchanges/s`,
  );
  console.log(`  exchanges that tested each clause: ${tested}`);

  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['bin/ctxconform.mjs', 'run', '--memory-api', url, '--cases', 'none', '--properties', String(RUNS), '--quiet'], {
      cwd: root,
      encoding: 'utf8',
    });
    best = Math.min(best, performance.now() - t0);
    if (r.status !== 0) console.log(`(the run exited ${r.status}: ${r.stdout.split('\n').slice(-2).join(' ')})`);
  }
  line('ctxconform run --memory-api --cases none', `${(best / 1000).toFixed(2)} s wall incl. start-up`);
} finally {
  fake.kill();
}
