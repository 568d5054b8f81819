/**
 * A run with default options (corpus + properties at 100 runs, --timeout 5000,
 * concurrency 4) against an implementation over stdio that hangs on about one
 * request in twenty (test/fixtures/faulty/hangs-one-in-twenty.ts). Goal: the
 * whole run ends within 2 minutes, each hang costing its own timeout only.
 * Printed, never asserted; it takes about a minute.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-bench-hangs-'));
const fake = join(root, 'test/fixtures/faulty/hangs-one-in-twenty.ts');
const t0 = performance.now();
spawnSync(
  process.execPath,
  [join(root, 'bin/ctxconform.mjs'), 'run', '--stdio', `"${process.execPath}" --import tsx "${fake}"`, '--json', join(tmp, 'r.json'), '--quiet'],
  { cwd: root, stdio: 'ignore' },
);
const wall = (performance.now() - t0) / 1000;
const r = JSON.parse(readFileSync(join(tmp, 'r.json'), 'utf8')) as { summary: Record<string, number>; cases: { kind: string; status: string }[] };
rmSync(tmp, { recursive: true, force: true });
const s = r.summary;
console.log(
  `one-in-twenty hangs, default options: ${wall.toFixed(1)} s wall (goal < 120 s); ${s.timeout} timeout, ${s.pass} pass, ${s.fail} fail, ${s.skip} skip of ${s.total}`,
);
