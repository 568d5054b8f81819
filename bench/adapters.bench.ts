/**
 * The corpus through each adapter, in cases per second, and each adapter's
 * per-case overhead against floors measured in the same run:
 *   - in process: the whole `ctxconform run` (corpus + properties at 100 runs), wall time
 *     including start-up (goal < 2 s); then `--module` (a worker thread) against the same
 *     precomputed answers returned in process;
 *   - stdio: an echo process that answers every request with a precomputed answer, against
 *     the same answers returned in process: the difference is the transport (goal < 0.3 ms);
 *   - http: the same with a trivial node:http server, keep-alive (goal < 0.5 ms);
 *   - then the real thing: the Python example over stdio and `serve` over http.
 * Numbers are printed, never asserted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromFunctions } from '../adapters/inprocess.js';
import { loadCorpus } from '../judging/cases/load.js';
import { openImplementation } from '../running/open.js';
import { runSuite } from '../running/run.js';
import type { GoldenCase } from '../vocabulary/types.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { assemble, describe } from '../reference/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const REPS = 5;
const { cases } = loadCorpus();
const manifest = describe() as Manifest;
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-bench-'));

// The echo floors answer from a table of the reference's answers, found by a small key the
// request carries (ignored members are allowed, REQ-3), so they do no assembling.
const answers = cases.map((c) => assemble(c.request));
const answersFile = join(tmp, 'answers.json');
writeFileSync(answersFile, JSON.stringify(answers));
const echoCases: GoldenCase[] = cases.map((c, k) => ({ ...c, request: { ...(c.request as object), __k: k } }));

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

function firstUrl(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    stream.on('data', (d: Buffer) => {
      out += String(d);
      const m = /http:\/\/[\d.]+:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
  });
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
  let floor = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['bin/ctxconform.mjs', 'run', '--cases', 'none', '--properties', '0', '--quiet'], { cwd: root });
    floor = Math.min(floor, performance.now() - t0);
  }
  line('  of which start-up (run --cases none --properties 0)', `${(floor / 1000).toFixed(2)} s`);
  const t0 = performance.now();
  const again = loadCorpus();
  line(`  of which loading the ${again.cases.length} cases (warm)`, `${((performance.now() - t0) / 1000).toFixed(2)} s`);
}

// 2. In-process floor: precomputed answers, judged.
const echoImpl = fromFunctions((req) => answers[(req as { __k: number }).__k], undefined, manifest);
const inproc = await perCase(echoImpl, manifest, echoCases, 1);
line(`in process, precomputed answers (${cases.length} cases)`, fmt(inproc));
const reference = await perCase(
  fromFunctions((r) => assemble(r), undefined, manifest),
  manifest,
  cases,
  1,
);
line('in process, the reference', fmt(reference));

// The module adapter: the same answers from a module in a worker thread.
{
  const echoModule = join(tmp, 'echo-module.mjs');
  writeFileSync(
    echoModule,
    `import { readFileSync } from 'node:fs';
const answers = JSON.parse(readFileSync(${JSON.stringify(answersFile)}, 'utf8'));
export const assemble = (r) => answers[r.__k];`,
  );
  const mf = join(tmp, 'manifest.json');
  writeFileSync(mf, JSON.stringify(manifest));
  const m = await openImplementation({ transport: 'module', config: { path: echoModule }, manifest: mf, timeoutMs: 10_000 });
  const ms = await perCase(m.impl, m.manifest, echoCases, 1);
  await m.impl.close();
  line('module (worker thread), precomputed answers', `${fmt(ms)}; overhead ${(ms - inproc).toFixed(3)} ms/case`);
}

// 3. stdio: an echo process (no tsx, no assembling).
const echoScript = join(tmp, 'echo.mjs');
writeFileSync(
  echoScript,
  `import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const answers = JSON.parse(readFileSync(${JSON.stringify(answersFile)}, 'utf8'));
createInterface({ input: process.stdin }).on('line', (l) => {
  const m = JSON.parse(l);
  const e = m.op === 'describe' ? null : answers[m.request.__k];
  const a = m.op === 'describe' ? { ok: ${JSON.stringify(manifest)} } : 'error' in e ? { error: e.error } : { ok: e };
  process.stdout.write(JSON.stringify({ id: m.id, ...a }) + '\\n');
});`,
);
for (const concurrency of [1, 8]) {
  const o = await openImplementation({ transport: 'stdio', config: { command: `"${process.execPath}" "${echoScript}"`, processes: 1 }, timeoutMs: 10_000 });
  const ms = await perCase(o.impl, o.manifest, echoCases, concurrency);
  await o.impl.close();
  line(`stdio echo, concurrency ${concurrency}`, `${fmt(ms)}; overhead ${(ms - inproc).toFixed(3)} ms/case (goal < 0.3)`);
}
{
  const py = await openImplementation({
    transport: 'stdio',
    config: { command: `python3 "${join(root, 'adapters/examples/python/impl.py')}"`, processes: 1 },
    timeoutMs: 10_000,
  });
  const run = cases.filter((c) => c.profile === 'tiered' && c.capabilities.length === 0);
  for (const concurrency of [1, 8])
    line(`stdio Python example, concurrency ${concurrency} (${run.length})`, fmt(await perCase(py.impl, py.manifest, run, concurrency)));
  await py.impl.close();
}

// 4. http: a trivial node:http server answering the precomputed answers, then `serve`.
{
  // In its own process, as any server under test is: sharing the runner's event loop would count its work twice.
  const serverScript = join(tmp, 'trivial-http.mjs');
  writeFileSync(
    serverScript,
    `import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
const answers = JSON.parse(readFileSync(${JSON.stringify(answersFile)}, 'utf8'));
const s = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/describe') return void res.end(${JSON.stringify(JSON.stringify(manifest))});
    const a = answers[JSON.parse(Buffer.concat(chunks).toString('utf8')).__k];
    res.writeHead('error' in a ? 422 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(a));
  });
});
s.keepAliveTimeout = 30000;
s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port));`,
  );
  const trivial = spawn(process.execPath, [serverScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await firstUrl(trivial.stdout);
  for (const concurrency of [1, 8]) {
    const o = await openImplementation({ transport: 'http', config: { base: url }, timeoutMs: 10_000, concurrency });
    const ms = await perCase(o.impl, o.manifest, echoCases, concurrency);
    await o.impl.close();
    line(`http trivial server, concurrency ${concurrency}`, `${fmt(ms)}; overhead ${(ms - inproc).toFixed(3)} ms/case (goal < 0.5)`);
  }
  trivial.kill();
}
{
  // `serve` as its own process, as a vendor would start it.
  const child = spawn(process.execPath, ['bin/ctxconform.mjs', 'serve', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await firstUrl(child.stdout);
  for (const concurrency of [1, 8]) {
    const o = await openImplementation({ transport: 'http', config: { base: url }, timeoutMs: 10_000, concurrency });
    line(`http serve (reference), concurrency ${concurrency}`, fmt(await perCase(o.impl, o.manifest, cases, concurrency)));
    await o.impl.close();
  }
  child.kill('SIGTERM');
}
rmSync(tmp, { recursive: true, force: true });
