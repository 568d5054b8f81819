/**
 * The diagnosis asks a defect only about requests that have one of its
 * features (catalogue.ts, reachOf). That is sound only if a defect answers
 * every other request exactly as the model without defects does: checked
 * here for every catalogue entry and family, over the corpus and random
 * requests, under every capability, none, and declared constants.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../judging/cases/load.js';
import { CATALOGUE, FAMILIES, featuresOf, modelAssemble, reachOf } from '../../diagnosis/index.js';
import type { Defects, Feature, ModelConfig, ValidationMemo } from '../../diagnosis/index.js';
import { request } from '../../judging/properties/arbitraries.js';
import { CAPABILITIES } from '../../reference/index.js';
import { TUNED } from '../fixtures/declared/constants.js';
import { FAMILY_EXAMPLES } from './helpers.js';

const CONFIGS: ModelConfig[] = [{ capabilities: [] }, { capabilities: CAPABILITIES }, { capabilities: CAPABILITIES, constants: TUNED }];

const subjects: [string, Defects, readonly Feature[] | undefined][] = [
  ...CATALOGUE.map((e): [string, Defects, readonly Feature[] | undefined] => [e.id, e.defects, reachOf(e)]),
  ...FAMILIES.map((f): [string, Defects, readonly Feature[] | undefined] => [f.id, FAMILY_EXAMPLES[f.id]!, f.when]),
];

const corpus = loadCorpus().cases.map((c) => c.request);
const randomRequests = fc.sample(request({ profiles: ['tiered', 'ranked'], capabilities: CAPABILITIES }), { numRuns: 300, seed: 5 });

/**
 * The validation of each request, as the diagnosis keeps it (model.ts, ValidationMemo): every subject
 * that reads a request unchanged validates it once, as a diagnosis does.
 */
const validated: ValidationMemo = new WeakMap();

/** Every request under every configuration, with its features and the answer without defects: worked out once, shared by every subject. */
const judged = CONFIGS.flatMap((config) =>
  [...corpus, ...randomRequests].map((req) => {
    const plain = modelAssemble(req, config, undefined, validated);
    return { req, config, plain, features: featuresOf(req, config, plain) };
  }),
);

/** The requests (with a configuration and their answer without defects) that have none of the features, where the defect must change nothing. */
function outOfReach(when: readonly Feature[]): { req: unknown; config: ModelConfig; plain: unknown }[] {
  return judged.filter((x) => !when.some((w) => x.features.has(w)));
}

describe('a defect changes no answer outside its reach', () => {
  it('every family has a test instance', () => {
    expect(FAMILIES.map((f) => f.id).filter((id) => FAMILY_EXAMPLES[id] === undefined)).toEqual([]);
  });

  it.each(subjects.filter(([, , when]) => when !== undefined))('%s', (_id, defects, when) => {
    const changed = outOfReach(when!).filter(({ req, config, plain }) => !isDeepStrictEqual(modelAssemble(req, config, defects, validated), plain));
    expect(changed.slice(0, 3).map(({ req }) => JSON.stringify(req).slice(0, 200))).toEqual([]);
  });

  it('the features are those the entries rely on (so the checks above can fail)', () => {
    const remainder = CATALOGUE.find((e) => e.id === 'remainder-in-pool')!;
    // Within its reach the defect does change answers; a reach too narrow would hide that.
    const inReach = corpus.filter((req) => featuresOf(req, CONFIGS[1]!, modelAssemble(req, CONFIGS[1]!)).has('tiered'));
    expect(inReach.some((req) => !isDeepStrictEqual(modelAssemble(req, CONFIGS[1]!, remainder.defects), modelAssemble(req, CONFIGS[1]!)))).toBe(true);
    // And a reach that left out a feature the defect needs is caught: pinned-ignored changes answers of pinned requests only.
    const pinnedIgnored = CATALOGUE.find((e) => e.id === 'pinned-ignored')!;
    const wrongReach = outOfReach(['constraints']).filter(
      ({ req, config, plain }) => !isDeepStrictEqual(modelAssemble(req, config, pinnedIgnored.defects), plain),
    );
    expect(wrongReach.length).toBeGreaterThan(0);
  });
});
