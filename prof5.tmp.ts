import { loadCorpus } from './conformance/cases/load.js';
import { judge, skipReason } from './conformance/judge.js';
import { CATALOGUE, caseObservation, diagnose, modelAssemble, asOutcome } from './conformance/diagnose/index.js';
const cases = loadCorpus().cases;
const manifest = { name: 'v', version: '1', profiles: ['tiered', 'ranked'], capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned', 'omission_markers'] };
const ids = ['remainder-in-pool', 'null-read-as-absent', 'non-finite-read-as-zero', 'inclusive-expiry', 'ties-by-input-order'];
const d = Object.assign({}, ...ids.map((id) => CATALOGUE.find((e) => e.id === id)!.defects));
const obs = cases.filter((c) => !skipReason(c, manifest)).map((c) => {
  const outcome = asOutcome(JSON.parse(JSON.stringify(modelAssemble(c.request, { capabilities: manifest.capabilities }, d))));
  return caseObservation(c, outcome, manifest, judge(c, outcome, manifest).status === 'pass');
});
let t = performance.now();
diagnose(obs);
console.log('first', performance.now() - t);
t = performance.now();
diagnose(obs);
console.log('second', performance.now() - t);
