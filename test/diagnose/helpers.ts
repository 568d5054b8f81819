/**
 * Runs for the diagnosis tests: an implementation over the corpus, each case
 * judged as the runner judges it, gathered as the observations the
 * diagnosis reads.
 */
import { loadCorpus } from '../../judging/cases/load.js';
import { judge, skipReason } from '../../judging/judge.js';
import type { Observation } from '../../diagnosis/index.js';
import { caseObservation, diagnosisMemo, keptAnswer } from '../../diagnosis/index.js';
import { returnedOutcome } from '../../adapters/outcome.js';
import type { Defects } from '../../diagnosis/index.js';
import { declaredConstants } from '../../judging/expectation.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import type { Implementation, Manifest } from '../../protocol/types.js';
import { TUNED } from '../fixtures/declared/constants.js';

/** One instance of each family (families.ts), with the value its tests give it. */
export const FAMILY_EXAMPLES: Readonly<Record<string, Defects>> = {
  'source-in-another-tier': { sourceToTier: { memory: 'working' } },
  preamble: { preamble: 'Context:\n' },
  'empty-context-placeholder': { emptyPlaceholder: '(no relevant memories)' },
  'context-suffix': { contextSuffix: '\n' },
  'header-separator': { headerSeparator: ' \u2022 ' },
  'block-joiner': { joiner: '\n' },
  'header-source-rewritten': { headerSources: { 'tool-results': 'tool_results' } },
  'extra-result-members': { extraMembers: { instructions: 'none' } },
  'missing-result-members': { missingMembers: ['total_budget'] },
  'generated-at-not-now': { generatedAt: 1_800_000_000 },
};

export const CORPUS: readonly GoldenCase[] = loadCorpus().cases;

export const FULL: Manifest = {
  name: 'model',
  version: '0',
  profiles: ['tiered', 'ranked'],
  capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned', 'omission_markers'],
};
export const CORE: Manifest = { name: 'model', version: '0', profiles: ['tiered'], capabilities: [] };
export const TUNED_FULL: Manifest = { ...FULL, constants: TUNED };

/** Every case the manifest lets run, sent to the implementation and judged. */
export async function observe(impl: Implementation, manifest: Manifest, corpus: readonly GoldenCase[] = CORPUS): Promise<Observation[]> {
  const out: Observation[] = [];
  for (const c of corpus) {
    if (skipReason(c, manifest) !== undefined) continue;
    const outcome = await impl.assemble(c.request, { timeoutMs: 10_000 });
    const v = judge(c, outcome, manifest);
    if (v.status === 'skip') continue;
    out.push(caseObservation(c, outcome, manifest, v.status === 'pass'));
  }
  return out;
}

/**
 * One memo for every diagnosis of a test file (diagnose.ts, DiagnosisMemo):
 * the tests diagnose many runs over the same corpus requests, and with it
 * each is answered once per defect set in all.
 */
export const MEMO = diagnosisMemo();

/**
 * The model with these defects, in process, under this manifest. It is handed
 * the request itself (the model changes nothing), so its answers are the ones
 * the diagnosis keeps for that request in MEMO (diagnose.ts, keptAnswer).
 */
export function modelImplementation(defects: Defects, manifest: Manifest): Implementation {
  const config = { capabilities: manifest.capabilities, constants: declaredConstants(manifest) };
  return { describe: async () => manifest, assemble: async (request) => returnedOutcome(keptAnswer(request, config, defects, MEMO)), close: async () => {} };
}
