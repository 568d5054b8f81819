/**
 * The diagnosis's acceptance test, in process: for every defect of the catalogue, an
 * implementation with exactly that defect (the defect model with its hooks),
 * run over the whole corpus and judged as the runner judges, gets that
 * defect as its one diagnosis, explaining every failure and contradicting no
 * pass; for pairs drawn at random (seeded), an implementation with both gets
 * both named in its top two causes; a correct implementation gets none.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { referenceImplementation } from '../../adapters/reference.js';
import { CATALOGUE, diagnose, FAMILIES, reachOf, SECTIONS } from '../../diagnosis/index.js';
import type { CatalogueEntry, Defects, Diagnosis, Observation, Section } from '../../diagnosis/index.js';
import { specRequirements } from '../../vocabulary/spec.js';
import type { Manifest } from '../../protocol/types.js';
import { CORE, FAMILY_EXAMPLES, FULL, MEMO, modelImplementation, observe, TUNED_FULL } from './helpers.js';

/**
 * The run of the model with these defects under this manifest, observed once
 * per defect set (by identity) and manifest: a pair's test asks again for the
 * runs of its two entries alone, and the family test below for a family
 * example's. Every test only reads what it is given.
 */
const runs = new Map<Defects, Map<Manifest, Promise<{ observations: Observation[]; failing: number; d: Diagnosis | undefined }>>>();

function runOf(defects: Defects, manifest: Manifest): Promise<{ observations: Observation[]; failing: number; d: Diagnosis | undefined }> {
  let byManifest = runs.get(defects);
  if (byManifest === undefined) {
    byManifest = new Map();
    runs.set(defects, byManifest);
  }
  let run = byManifest.get(manifest);
  if (run === undefined) {
    run = observe(modelImplementation(defects, manifest), manifest).then((observations) => ({
      observations,
      failing: observations.filter((o) => !o.passed).length,
      d: diagnose(observations, { memo: MEMO }),
    }));
    byManifest.set(manifest, run);
  }
  return run;
}

async function diagnosisOf(defects: Defects, manifest: Manifest): Promise<{ failing: number; d: Diagnosis | undefined }> {
  const { failing, d } = await runOf(defects, manifest);
  return { failing, d };
}

/** The defect is the one cause named: it explains every failure and contradicts no passing case. */
function expectSoleCause(d: Diagnosis | undefined, failing: number, id: string): void {
  expect(failing, 'the corpus shows the defect').toBeGreaterThan(0);
  expect(d?.causes.map((c) => `${c.id} ${c.explains}/${c.failing} contradicts ${c.contradicts}`)).toEqual([`${id} ${failing}/${failing} contradicts 0`]);
  expect(d?.unexplained).toEqual([]);
}

describe('the catalogue', () => {
  const ids = new Set(specRequirements().map((r) => r.id));

  it('names each entry once, in kebab-case, with SPEC requirement ids and a sentence that says what the spec says instead', () => {
    const all = [...CATALOGUE.map((e) => e.id), ...FAMILIES.map((f) => f.id)];
    expect(all.filter((id, i) => all.indexOf(id) !== i)).toEqual([]);
    expect(all.filter((id) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id))).toEqual([]);
    const unknown = [...CATALOGUE, ...FAMILIES].flatMap((e) => e.requirements.filter((r) => !ids.has(r)).map((r) => `${e.id}: ${r}`));
    expect(unknown).toEqual([]);
    // One sentence: what the implementation does; what the spec says (by requirement id or section).
    expect(CATALOGUE.filter((e) => !/^[a-zA-Z].*; .*([A-Z]+-\d|section \d|spec)/.test(e.summary) || /\.$/.test(e.summary)).map((e) => e.id)).toEqual([]);
    expect(CATALOGUE.filter((e) => Object.keys(e.defects).length === 0).map((e) => e.id)).toEqual([]);
  });

  it('is listed whole in docs/diagnosis.md', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/diagnosis.md', import.meta.url)), 'utf8');
    expect([...CATALOGUE.map((e) => e.id), ...FAMILIES.map((f) => f.id)].filter((id) => !doc.includes(`| \`${id}\``))).toEqual([]);
    expect(doc).toContain(`${CATALOGUE.length} entries and ${FAMILIES.length} families`);
  });

  it('covers every section of the catalogue (SECTIONS, the requirement sections the issue lists), and every kind of request a defect needs', () => {
    const sections: readonly Section[] = SECTIONS;
    expect(sections.filter((s) => !CATALOGUE.some((e) => e.section === s))).toEqual([]);
    expect(CATALOGUE.filter((e) => reachOf(e) === undefined).map((e) => e.id)).toEqual([]);
  });
});

describe('one defect: it is the diagnosis (in process, every capability declared)', () => {
  const plain = CATALOGUE.filter((e) => !e.declaredOnly);
  it.each(plain.map((e) => [e.id, e] as const))('%s', async (id, e: CatalogueEntry) => {
    const { failing, d } = await diagnosisOf(e.defects, FULL);
    expectSoleCause(d, failing, id);
  });

  it.each(Object.entries(FAMILY_EXAMPLES))('%s (a family, its value read off the answers)', async (id, defects) => {
    const { failing, d } = await diagnosisOf(defects, FULL);
    expectSoleCause(d, failing, id);
  });

  it('a family instance names its value: the source and the tier it was moved to', async () => {
    // The family example's run (FAMILY_EXAMPLES: the memory source moved to the working tier), as the test above diagnosed it.
    const { d } = await diagnosisOf(FAMILY_EXAMPLES['source-in-another-tier']!, FULL);
    expect(d?.causes[0]?.summary).toMatch(/"memory" is in the working tier.*TIER-1 puts it in longterm/);
  });
});

describe('one defect: it is the diagnosis of a core implementation (no capability, profile tiered only)', () => {
  // The vendor of the issue: the capability defects cannot show there, every other one that the core cases show must be named.
  const core = CATALOGUE.filter((e) => !e.declaredOnly && reachOf(e)!.some((f) => f === 'valid' || f === 'invalid' || f === 'tiered'));
  it.each(core.map((e) => [e.id, e] as const))('%s', async (id, e: CatalogueEntry) => {
    const { failing, d } = await diagnosisOf(e.defects, CORE);
    if (failing === 0) {
      // Only the defects of the profile ranked, which a core implementation does not declare, may be invisible here.
      expect(id).toMatch(/^ranked-/);
      expect(d).toBeUndefined();
      return;
    }
    expectSoleCause(d, failing, id);
  });
});

describe('one defect: it is the diagnosis under declared constants (section 17)', () => {
  const underTuning = CATALOGUE.filter((e) => e.declaredOnly || e.section === 'constants' || e.section === 'tiers' || e.section === 'pool');
  it.each(underTuning.map((e) => [e.id, e] as const))('%s', async (id, e: CatalogueEntry) => {
    const { failing, d } = await diagnosisOf(e.defects, TUNED_FULL);
    // A changed constant equal to the declared one is no defect (the split 50/20/20/10); and the corpus,
    // sized for the specification's numbers, no longer shows hyphens read as underscores under this tuning (SPEC section 17).
    if (failing === 0) {
      expect(['tier-split-50-20-20-10', 'hyphens-read-as-underscores']).toContain(id);
      expect(d).toBeUndefined();
      return;
    }
    expectSoleCause(d, failing, SAME_UNDER_TUNING[id] ?? id);
  });
});

/**
 * Entries that are one implementation under the tuned declaration: with 3
 * characters per token declared, an estimate dividing by 3 everywhere
 * differs from the declared reading only in profile ranked, which is what
 * ranked-takes-declared-chars-per-token says; the declared reading is named.
 */
const SAME_UNDER_TUNING: Readonly<Record<string, string>> = { 'chars-per-token-3': 'ranked-takes-declared-chars-per-token' };

/** A small seeded generator (mulberry32), so the drawn pairs are the same every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pairs of entries that override different hooks, drawn with a fixed seed from the entries by id (where a defect is registered does not move the draw). */
function drawPairs(count: number, seed: number): [CatalogueEntry, CatalogueEntry][] {
  const pool = CATALOGUE.filter((e) => !e.declaredOnly).sort((x, y) => (x.id < y.id ? -1 : 1));
  const next = prng(seed);
  const out: [CatalogueEntry, CatalogueEntry][] = [];
  while (out.length < count) {
    const a = pool[Math.floor(next() * pool.length)]!;
    const b = pool[Math.floor(next() * pool.length)]!;
    if (a === b || Object.keys(a.defects).some((k) => Object.hasOwn(b.defects, k))) continue;
    out.push([a, b]);
  }
  return out;
}

describe('two defects, one of which changes the failures no single explains only beside the other', () => {
  // At 4 characters per token the split 50/20/20/10 gives nine of these corpus requests the specification's answer;
  // at 2 it does not. Alone, the other split 50/15/20/15 happens to reproduce two of them.
  it('are found as the pair: chars-per-token-2 with tier-split-50-20-20-10 explains every failure', async () => {
    const [a, b] = ['chars-per-token-2', 'tier-split-50-20-20-10'].map((id) => CATALOGUE.find((e) => e.id === id)!) as [CatalogueEntry, CatalogueEntry];
    const observations = await observe(modelImplementation({ ...a.defects, ...b.defects }, FULL), FULL);
    const failing = observations.filter((o) => !o.passed).length;
    const d = diagnose(observations, { memo: MEMO })!;
    expect(d.causes[0]).toMatchObject({ id: `${a.id}+${b.id}`, explains: failing, contradicts: 0 });
    expect(d.unexplained).toEqual([]);
  });
});

describe('two defects: both are named in the top two causes (in process, every capability declared)', () => {
  it.each(drawPairs(24, 23).map(([a, b]) => [`${a.id} with ${b.id}`, a, b] as const))('%s', async (_label, a: CatalogueEntry, b: CatalogueEntry) => {
    const observations = await observe(modelImplementation({ ...a.defects, ...b.defects }, FULL), FULL);
    const d = diagnose(observations, { memo: MEMO });
    const named = new Set(d?.causes.slice(0, 2).flatMap((c) => c.defects));
    // A defect the other one hides entirely (its answers are those of the other alone) cannot be named: then the other is the sole cause.
    const alone = async (e: CatalogueEntry): Promise<boolean> => {
      const other = (await runOf(e.defects, FULL)).observations;
      return observations.every((o, i) => JSON.stringify(o.outcome) === JSON.stringify(other[i]!.outcome));
    };
    if (await alone(a)) expect([...named]).toEqual([a.id]);
    else if (await alone(b)) expect([...named]).toEqual([b.id]);
    else expect([...named].sort()).toEqual(expect.arrayContaining([a.id, b.id].sort()));
  });
});

describe('a correct implementation gets no diagnosis', () => {
  it.each([
    ['the reference, every capability', FULL],
    ['the reference, core only', CORE],
    ['the reference with declared constants', TUNED_FULL],
  ] as const)('%s', async (_label, manifest) => {
    const observations = await observe(referenceImplementation(manifest), manifest);
    expect(observations.filter((o) => !o.passed).map((o) => o.id)).toEqual([]);
    expect(diagnose(observations, { memo: MEMO })).toBeUndefined();
  });
});
