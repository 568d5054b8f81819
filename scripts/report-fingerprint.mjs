#!/usr/bin/env node
// The reports of the corpus run, written and hashed, so a change that should not change them
// (moving modules, splitting long lines) can be shown not to: run it before and after and
// compare the hashes. Three runs in process, each over the whole corpus with the properties at
// a fixed seed: the reference, a build with one known defect (failures, a likely cause, the
// principles), and a design of its own at the any level. The clock is the one thing a run may
// not repeat: every duration and start time is pinned before the reports are written.
//
//   npm run build --silent && npm run build:fixtures --silent && node scripts/report-fingerprint.mjs [DIR]
//
// DIR keeps the reports (default: a temporary folder, removed). Prints one `sha256  file` line a
// report and the hash of them all last.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (p) => join(root, 'dist', p);
const { loadCorpus } = await import(dist('judging/cases/load.js'));
const { runSuite } = await import(dist('running/run.js'));
const { likelyCause } = await import(dist('running/likely-cause.js'));
const { ObservationLog } = await import(dist('diagnosis/index.js'));
const { referenceImplementation } = await import(dist('adapters/reference.js'));
const { fromFunctions, openModule } = await import(dist('adapters/inprocess.js'));
const { greedy, greedyManifest } = await import(dist('test/fixtures/other-designs/greedy.js'));
const { writeReports, targetsIn } = await import(dist('report/index.js'));

const RUNS = [
  ['reference', () => referenceImplementation()],
  ['remainder-in-pool', () => openModule(dist('test/fixtures/broken/remainder-in-pool.js'))],
  // Greedy by priority, its own render, every drop silent: a design of its own whose failures break ANY-3.
  ['greedy-any', () => fromFunctions(greedy({ silentDrops: true }), undefined, greedyManifest('greedy-any'))],
];

/** The report with every reading of the clock set to 0 (a run's only part that may differ between two runs). */
function pinned(report) {
  const run = report.run ? { ...report.run, started_at: '1970-01-01T00:00:00.000Z', duration_ms: 0 } : report.run;
  return { ...report, ...(run ? { run } : {}), cases: report.cases.map((c) => ({ ...c, duration_ms: 0 })) };
}

const keep = process.argv[2];
const dir = keep ?? mkdtempSync(join(tmpdir(), 'ctxconform-fingerprint-'));
const corpus = loadCorpus();
const all = createHash('sha256');
try {
  for (const [name, open] of RUNS) {
    const impl = await open();
    const manifest = await impl.describe();
    const log = new ObservationLog();
    const report = await runSuite({
      cases: corpus.cases,
      impl,
      manifest,
      timeoutMs: 10_000,
      concurrency: 1,
      properties: 30,
      seed: 20261207,
      observations: log,
    });
    const cause = await likelyCause(report, log);
    await impl.close();
    await writeReports(pinned(cause?.report ?? report), await targetsIn(join(dir, name), {}));
  }
  for (const name of RUNS.map(([n]) => n)) {
    for (const file of readdirSync(join(dir, name)).sort()) {
      const bytes = readFileSync(join(dir, name, file));
      const hash = createHash('sha256').update(bytes).digest('hex');
      all.update(`${name}/${file} ${hash}\n`);
      console.log(`${hash}  ${name}/${file}`);
    }
  }
  console.log(`${all.digest('hex')}  (all)`);
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
