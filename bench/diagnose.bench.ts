/**
 * What the diagnosis adds to a failing run (conformance/diagnose/): the whole
 * corpus against an implementation with the slips of the vendor of issue 23
 * (a core-only Python assembler: the rounding remainder in the pool, null
 * read as absent, NaN read as 0, expiry at the boundary, ties in input
 * order), about 60 failures, each case judged as the runner judges it; then
 * the diagnosis of that run: the first (what a run pays, in a fresh
 * process) and the best of five. It measures the compiled kit in dist/, as
 * the command line runs it (`npm run bench` builds first). Numbers are
 * printed, never asserted. Goal: under 2 s for the diagnosis.
 */
import type * as Diagnose from '../conformance/diagnose/index.js';
import type { Defects, Observation } from '../conformance/diagnose/index.js';
import type * as Inprocess from '../adapters/inprocess.js';
import type * as Load from '../conformance/cases/load.js';
import type * as Declared from '../conformance/judge/expectation.js';
import type * as Judge from '../conformance/judge/judge.js';
import type { Manifest } from '../protocol/types.js';

const dist = (path: string): string => new URL(`../dist/${path}`, import.meta.url).href;
const { fromFunctions } = (await import(dist('adapters/inprocess.js'))) as typeof Inprocess;
const { loadCorpus } = (await import(dist('conformance/cases/load.js'))) as typeof Load;
const { declaredConstants } = (await import(dist('conformance/judge/expectation.js'))) as typeof Declared;
const { CATALOGUE, caseObservation, diagnose, modelAssemble } = (await import(dist('conformance/diagnose/index.js'))) as typeof Diagnose;
const { judge, skipReason } = (await import(dist('conformance/judge/judge.js'))) as typeof Judge;

const line = (label: string, s: string): void => console.log(`${label.padEnd(52)} ${s}`);

const VENDOR = ['remainder-in-pool', 'null-read-as-absent', 'non-finite-read-as-zero', 'inclusive-expiry', 'ties-by-input-order'];
const SCENARIOS: [string, Manifest, string[]][] = [
  ['core implementation, five slips', { name: 'vendor', version: '1', profiles: ['tiered'], capabilities: [] }, VENDOR],
  ['every capability, five slips', { name: 'vendor', version: '1', profiles: ['tiered', 'ranked'], capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned', 'omission_markers'] }, VENDOR],
  ['core implementation, one slip (remainder in pool)', { name: 'vendor', version: '1', profiles: ['tiered'], capabilities: [] }, ['remainder-in-pool']],
];

const cases = loadCorpus().cases;

async function observe(manifest: Manifest, ids: string[]): Promise<{ observations: Observation[]; ms: number }> {
  const defects: Defects = Object.assign({}, ...ids.map((id) => CATALOGUE.find((e) => e.id === id)!.defects));
  const config = { capabilities: manifest.capabilities, constants: declaredConstants(manifest) };
  const impl = fromFunctions((req) => modelAssemble(req, config, defects), undefined, manifest);
  const t0 = performance.now();
  const observations: Observation[] = [];
  for (const c of cases) {
    if (skipReason(c, manifest) !== undefined) continue;
    const outcome = await impl.assemble(c.request, { timeoutMs: 10_000 });
    const v = judge(c, outcome, manifest);
    if (v.status !== 'skip') observations.push(caseObservation(c, outcome, manifest, v.status === 'pass'));
  }
  return { observations, ms: performance.now() - t0 };
}

for (const [label, manifest, ids] of SCENARIOS) {
  const { observations, ms } = await observe(manifest, ids);
  const failing = observations.filter((o) => !o.passed).length;
  const times: number[] = [];
  let top = '';
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const d = diagnose(observations);
    times.push(performance.now() - t0);
    top = d ? d.causes.map((c) => `${c.id} ${c.explains}/${c.failing}`).join(', ') : 'none';
  }
  console.log(`\n${label}`);
  line('  cases judged, failing', `${observations.length}, ${failing}`);
  line('  run (in process, judged)', `${ms.toFixed(0)} ms`);
  line('  diagnosis, first', `${times[0]!.toFixed(0)} ms`);
  line('  diagnosis, best of 5', `${Math.min(...times).toFixed(0)} ms`);
  line('  causes', top);
  line('  unexplained', String(diagnose(observations)?.unexplained.length ?? 0));
}
