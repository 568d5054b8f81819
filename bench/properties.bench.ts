/**
 * Differential property runs per second through each adapter: one random
 * request to the implementation, the same to the reference in process, and
 * the comparison. Properties send one request at a time, so stdio and http
 * measure round-trip latency. Numbers are printed, never asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAssembleServer, listen } from '../adapters/http-server.js';
import { openHttp } from '../adapters/http.js';
import { referenceImplementation } from '../adapters/reference.js';
import { openStdio } from '../adapters/stdio.js';
import { PROPERTIES, runProperties } from '../judging/properties/index.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { assemble, describe } from '../reference/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const SEED = 1;
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-properties-bench-'));

async function measure(label: string, impl: Implementation, manifest: Manifest, runs: number, only: string[] = ['differential']): Promise<void> {
  await runProperties(impl, manifest, { runs: Math.min(50, runs), seed: SEED + 1, timeoutMs: 10_000, only }); // warm-up
  const t0 = performance.now();
  const results = await runProperties(impl, manifest, { runs, seed: SEED, timeoutMs: 10_000, only });
  const s = (performance.now() - t0) / 1000;
  const total = runs * results.length;
  const bad = results.filter((r) => r.status !== 'pass');
  const note = bad.length > 0 ? `  (not clean: ${bad.map((r) => `${r.id} ${r.status}`).join(', ')})` : '';
  console.log(`${label.padEnd(52)} ${String(Math.round(total / s)).padStart(7)} runs/s  (${total} runs in ${s.toFixed(2)} s)${note}`);
}

const all = describe() as Manifest;
const core: Manifest = { ...all, capabilities: [] };

// In process: the reference against itself isolates the property machinery's own cost.
await measure('in process, reference, core', referenceImplementation(core), core, 5000);
await measure('in process, reference, every capability', referenceImplementation(all), all, 5000);
await measure(
  `in process, reference, all ${PROPERTIES.length} properties`,
  referenceImplementation(all),
  all,
  1000,
  PROPERTIES.map((p) => p.name),
);

// stdio: the reference behind the JSON-lines protocol, in a node process.
const stdioScript = join(tmp, 'reference-stdio.mjs');
writeFileSync(
  stdioScript,
  `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
import { createInterface } from 'node:readline';
register();
const { assemble, describe } = await import(${JSON.stringify(pathToFileURL(join(root, 'reference/index.ts')).href)});
createInterface({ input: process.stdin }).on('line', (l) => {
  const m = JSON.parse(l);
  let a;
  if (m.op === 'describe') a = { ok: describe() };
  else { const out = assemble(m.request); a = out.error ? { error: out.error } : { ok: out }; }
  process.stdout.write(JSON.stringify({ id: m.id, ...a }) + '\\n');
});
`,
);
{
  const { impl, manifest } = await openStdio({ command: `${JSON.stringify(process.execPath)} ${JSON.stringify(stdioScript)}`, cwd: root, timeoutMs: 20_000 });
  try {
    await measure('stdio, reference in a node process', impl, manifest, 2000);
  } finally {
    await impl.close();
  }
}

// stdio: the Python example, when python3 is there.
if (spawnSync('python3', ['--version']).status === 0) {
  const { impl, manifest } = await openStdio({
    command: `python3 ${JSON.stringify(join(root, 'adapters/examples/python/impl.py'))}`,
    cwd: root,
    timeoutMs: 20_000,
  });
  try {
    await measure(`stdio, Python example (${manifest.capabilities.length ? manifest.capabilities.join(', ') : 'core'})`, impl, manifest, 1000);
  } finally {
    await impl.close();
  }
} else console.log('stdio, Python example: python3 not found, skipped');

// http: the reference behind node:http, keep-alive.
{
  const server = createAssembleServer({ assemble: (r) => assemble(r), describe });
  const base = await listen(server, 0, '127.0.0.1');
  const { impl, manifest } = await openHttp({ base, concurrency: 1, timeoutMs: 20_000 });
  try {
    await measure('http, reference over node:http', impl, manifest, 2000);
  } finally {
    await impl.close();
    server.closeAllConnections();
    server.close();
  }
}

rmSync(tmp, { recursive: true, force: true });
