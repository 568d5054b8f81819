/**
 * The corpus through each adapter, in cases per second, and each adapter's
 * per-case overhead against floors measured in the same run:
 *   - in process: the whole `ctxconform run` (corpus + properties at 100 runs), wall time
 *     including start-up (goal < 2 s);
 *   - stdio: an echo process that answers every request with a precomputed answer, against
 *     the same answers returned in process: the difference is the transport (goal < 0.3 ms);
 *   - http: the same with a trivial node:http server, keep-alive (goal < 0.5 ms);
 *   - then the real thing: the Python example over stdio and `serve` over http.
 * Numbers are printed, never asserted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromFunctions } from '../adapters/inprocess.js';
import { createAssembleServer, listen } from '../adapters/http-server.js';
import { loadCorpus } from '../conformance/cases/load.js';
import { openImplementation } from '../conformance/runner/open.js';
import { runSuite } from '../conformance/runner/run.js';
import type { GoldenCase, Implementation, Manifest } from '../conformance/types.js';
import { assemble, describe } from '../reference/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const REPS = 5;
const { cases } = loadCorpus();
const manifest = describe() as Manifest;
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-bench-'));

// Each request carries its reference answer, so the echo floors do no assembling.
const echoCases: GoldenCase[] = cases.map((c) => ({ ...c, request: { ...(c.request as object), __echo: assemble(c.request) } }));

async function perCase(impl: Implementation, m: Manifest, list: GoldenCase[], concurrency: number): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    const r = await runSuite({ cases: list, impl, manifest: m, timeoutMs: 10_000, concurrency, properties: 0, seed: 1 });
    const ms = performance.now() - t0;
    if (r.summary.crash + r.summary.timeout + r.summary.error > 0) throw new Error(`bench run not clean: ${JSON.stringify(r.summary)}`);
    best = Math.min(best, ms / r.summary.total);
  }
  return best;
}

const fmt = (ms: number): string => `${ms.toFixed(3)} ms/case, ${Math.round(1000 / ms)} cases/s`;
const line = (label: string, s: string): void => console.log(`${label.padEnd(44)} ${s}`);

// 1. The whole run in process, as `npm start` would, start-up included.
{
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['bin/ctxconform.mjs', 'run', '--properties', '100', '--quiet'], { cwd: root, encoding: 'utf8' });
    best = Math.min(best, performance.now() - t0);
    if (r.status !== 0) console.log(`(the run exited ${r.status}: ${r.stdout.split('\n').slice(-2).join(' ')})`);
  }
  line('in process: corpus + properties (100 runs)', `${(best / 1000).toFixed(2)} s wall incl. start-up (goal < 2 s)`);
}

// 2. In-process floor: precomputed answers, judged.
const echoImpl = fromFunctions((req) => (req as { __echo: unknown }).__echo, undefined, manifest);
const inproc = await perCase(echoImpl, manifest, echoCases, 1);
line(`in process, precomputed answers (${cases.length} cases)`, fmt(inproc));
const reference = await perCase(fromFunctions((r) => assemble(r), undefined, manifest), manifest, cases, 1);
line('in process, the reference', fmt(reference));

// 3. stdio: an echo process (no tsx, no assembling).
const echoScript = join(tmp, 'echo.mjs');
writeFileSync(
  echoScript,
  `import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (l) => {
  const m = JSON.parse(l);
  const a = m.op === 'describe' ? { ok: ${JSON.stringify(manifest)} } : 'error' in m.request.__echo ? { error: m.request.__echo.error } : { ok: m.request.__echo };
  process.stdout.write(JSON.stringify({ id: m.id, ...a }) + '\\n');
});`,
);
for (const concurrency of [1, 8]) {
  const o = await openImplementation({ stdio: `"${process.execPath}" "${echoScript}"`, timeoutMs: 10_000 });
  const ms = await perCase(o.impl, o.manifest, echoCases, concurrency);
  await o.impl.close();
  line(`stdio echo, concurrency ${concurrency}`, `${fmt(ms)}; overhead ${(ms - inproc).toFixed(3)} ms/case (goal < 0.3)`);
}
{
  const py = await openImplementation({ stdio: `python3 "${join(root, 'adapters/examples/python/impl.py')}"`, timeoutMs: 10_000 });
  const run = cases.filter((c) => c.profile === 'tiered' && c.capabilities.length === 0);
  for (const concurrency of [1, 8]) line(`stdio Python example, concurrency ${concurrency} (${run.length})`, fmt(await perCase(py.impl, py.manifest, run, concurrency)));
  await py.impl.close();
}

// 4. http: a trivial node:http server answering the precomputed answers, then `serve`.
{
  const trivial = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/describe') return void res.end(JSON.stringify(manifest));
      const echo = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { __echo: object }).__echo;
      res.writeHead('error' in echo ? 422 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(echo));
    });
  });
  trivial.keepAliveTimeout = 30_000;
  const url = await listen(trivial, 0, '127.0.0.1');
  for (const concurrency of [1, 8]) {
    const o = await openImplementation({ http: url, timeoutMs: 10_000, concurrency });
    const ms = await perCase(o.impl, o.manifest, echoCases, concurrency);
    await o.impl.close();
    line(`http trivial server, concurrency ${concurrency}`, `${fmt(ms)}; overhead ${(ms - inproc).toFixed(3)} ms/case (goal < 0.5)`);
  }
  trivial.closeAllConnections();
  trivial.close();
}
{
  // `serve` as its own process, as a vendor would start it.
  const child = spawn(process.execPath, ['bin/ctxconform.mjs', 'serve', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => child.stdout.on('data', (d: Buffer) => /http:\/\/[\d.:]+/.test(String(d)) && resolve(/http:\/\/[\d.:]+/.exec(String(d))![0])));
  for (const concurrency of [1, 8]) {
    const o = await openImplementation({ http: url, timeoutMs: 10_000, concurrency });
    line(`http serve (reference), concurrency ${concurrency}`, fmt(await perCase(o.impl, o.manifest, cases, concurrency)));
    await o.impl.close();
  }
  child.kill('SIGTERM');
}
// Kept for the http server created above: nothing else to close.
void createAssembleServer;
rmSync(tmp, { recursive: true, force: true });
