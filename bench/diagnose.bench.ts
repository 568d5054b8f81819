/**
 * What the diagnosis adds to a failing run (diagnosis/): the whole
 * corpus and the properties (100 runs each, as `ctxconform run` does) through
 * the runner, against an implementation with the slips of a vendor's first
 * run (a Python assembler: the rounding remainder in the pool, null read
 * as absent, NaN read as 0, expiry at the boundary, ties in input order),
 * about 60 failures. Measured: the run without a diagnosis, the run keeping
 * its observations (the properties' counterexamples are asked once more),
 * and the ending's diagnosis of them (likelyCause, what `finish` calls): the
 * first in the process (what a run pays) and the best of five. Then a replay
 * of the corpus requests ten times over, its observations bounded as the
 * command bounds them. It measures the compiled kit in dist/, as the command
 * line runs it (`npm run bench` builds first). Numbers are printed, never
 * asserted. Goal: the diagnosis adds under 2 s.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Diagnose from '../diagnosis/index.js';
import type { Defects } from '../diagnosis/index.js';
import type * as Inprocess from '../adapters/inprocess.js';
import type * as Wire from '../adapters/wire.js';
import type * as Load from '../judging/cases/load.js';
import type * as Declared from '../judging/expectation.js';
import type * as Replay from '../traffic/replay/run.js';
import type * as LikelyCause from '../running/likely-cause.js';
import type * as Run from '../running/run.js';
import type { Implementation, Manifest } from '../protocol/types.js';

const dist = (path: string): string => new URL(`../dist/${path}`, import.meta.url).href;
const { fromFunctions } = (await import(dist('adapters/inprocess.js'))) as typeof Inprocess;
const { encodeRequest } = (await import(dist('adapters/wire.js'))) as typeof Wire;
const { loadCorpus } = (await import(dist('judging/cases/load.js'))) as typeof Load;
const { declaredConstants } = (await import(dist('judging/expectation.js'))) as typeof Declared;
const { CATALOGUE, ObservationLog, STREAM_LIMITS, modelAssemble } = (await import(dist('diagnosis/index.js'))) as typeof Diagnose;
const { runSuite } = (await import(dist('running/run.js'))) as typeof Run;
const { replay } = (await import(dist('traffic/replay/run.js'))) as typeof Replay;
const { likelyCause } = (await import(dist('running/likely-cause.js'))) as typeof LikelyCause;

const line = (label: string, s: string): void => console.log(`${label.padEnd(52)} ${s}`);
const ms = (x: number): string => `${x.toFixed(0)} ms`;

const VENDOR = ['remainder-in-pool', 'null-read-as-absent', 'non-finite-read-as-zero', 'inclusive-expiry', 'ties-by-input-order'];
const CORE: Manifest = { name: 'vendor', version: '1', profiles: ['tiered'], capabilities: [] };
const FULL: Manifest = {
  name: 'vendor',
  version: '1',
  profiles: ['tiered', 'ranked'],
  capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned', 'omission_markers'],
};
const SCENARIOS: [string, Manifest, string[]][] = [
  ['every capability, five slips', FULL, VENDOR],
  ['core implementation, five slips', CORE, VENDOR],
  ['core implementation, one slip (remainder in pool)', CORE, ['remainder-in-pool']],
];
const PROPERTY_RUNS = 100;

const cases = loadCorpus().cases;

function vendor(manifest: Manifest, ids: string[]): Implementation {
  const defects: Defects = Object.assign({}, ...ids.map((id) => CATALOGUE.find((e) => e.id === id)!.defects));
  const config = { capabilities: manifest.capabilities, constants: declaredConstants(manifest) };
  return fromFunctions((req) => modelAssemble(req, config, defects), undefined, manifest);
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await f();
  return [out, performance.now() - t0];
}

for (const [label, manifest, ids] of SCENARIOS) {
  const options = { cases, manifest, timeoutMs: 10_000, concurrency: 1, properties: PROPERTY_RUNS, seed: 1 };
  // One run first, unmeasured, so the two measured runs meet the same warm engine (the diagnosis's first is measured cold).
  await runSuite({ ...options, impl: vendor(manifest, ids) });
  const [, plain] = await timed(() => runSuite({ ...options, impl: vendor(manifest, ids) }));
  const log = new ObservationLog();
  const [report, observing] = await timed(() => runSuite({ ...options, impl: vendor(manifest, ids), observations: log }));
  const times: number[] = [];
  let causes = '';
  let unexplained = 0;
  for (let i = 0; i < 5; i++) {
    const [cause, t] = await timed(() => likelyCause(report, log));
    times.push(t);
    causes = cause ? cause.diagnosis.causes.map((c) => `${c.id} ${c.explains}/${c.failing}`).join(', ') : 'none';
    unexplained = cause?.diagnosis.unexplained.length ?? 0;
  }
  console.log(`\n${label}`);
  line('  results judged, failing (cases and properties)', `${log.seen.failing + log.seen.passing}, ${log.seen.failing}`);
  line(`  run, properties ${PROPERTY_RUNS} runs, without diagnosis`, ms(plain));
  line('  run keeping its observations', `${ms(observing)} (${observing - plain >= 0 ? '+' : ''}${ms(observing - plain)})`);
  line('  diagnosis at the ending, first', ms(times[0]!));
  line('  diagnosis at the ending, best of 5', ms(Math.min(...times)));
  line('  diagnosis adds to the run (observing + first)', ms(observing - plain + times[0]!));
  line('  causes', causes);
  line('  unexplained', String(unexplained));
}

// A replay streams: its log keeps the first failing requests and a sample of the passing ones.
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-diagnose-bench-'));
try {
  const requests = cases
    .filter((c) => c.profile === 'tiered' && c.capabilities.length === 0 && encodeRequest(c.request).ok)
    .map((c) => JSON.stringify(c.request));
  const file = join(tmp, 'corpus-x10.jsonl');
  writeFileSync(file, Array.from({ length: 10 }, () => requests.join('\n')).join('\n') + '\n');
  const options = {
    sources: [{ path: file, label: 'corpus-x10.jsonl' }],
    manifest: CORE,
    timeoutMs: 10_000,
    concurrency: 4,
    twice: true,
    shrink: 0,
    maxListed: 1000,
  };
  await replay({ ...options, impl: vendor(CORE, VENDOR) });
  const [, plain] = await timed(() => replay({ ...options, impl: vendor(CORE, VENDOR) }));
  const log = new ObservationLog(STREAM_LIMITS);
  const [report, observing] = await timed(() => replay({ ...options, impl: vendor(CORE, VENDOR), observations: log }));
  const [cause, diagnosing] = await timed(() => likelyCause(report, log));
  console.log('\nreplay of the corpus requests x10, core implementation, five slips');
  line(
    '  requests, failing; kept failing, passing',
    `${log.seen.failing + log.seen.passing}, ${log.seen.failing}; ${log.seen.keptFailing}, ${log.seen.keptPassing}`,
  );
  line('  replay without diagnosis', ms(plain));
  line('  replay keeping its observations', `${ms(observing)} (${observing - plain >= 0 ? '+' : ''}${ms(observing - plain)})`);
  line('  diagnosis at the ending', ms(diagnosing));
  line('  causes', cause ? cause.diagnosis.causes.map((c) => `${c.id} ${c.explains}/${c.failing}`).join(', ') : 'none');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
