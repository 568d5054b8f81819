/**
 * The bundled corpus: it loads without a problem, covers every case-covered
 * SPEC id, and the reference passes every case, both when it declares every
 * capability and when it declares only those the case needs (so no case
 * leans on a capability it does not list).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { referenceImplementation } from '../../adapters/reference.js';
import { BUNDLED_CASES_DIR, formatProblem, loadCorpus } from '../../judging/cases/load.js';
import { judge, skipReason } from '../../judging/judge.js';
import { isCaseExempt, specRequirements } from '../../vocabulary/spec.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import type { Manifest } from '../../protocol/types.js';

const corpus = loadCorpus();
const FULL: Manifest = {
  name: 'reference',
  version: '1',
  profiles: ['tiered', 'ranked'],
  capabilities: ['working_context', 'constraints', 'lifecycle', 'pinned', 'omission_markers'],
};

async function verdictFor(c: GoldenCase, manifest: Manifest) {
  const impl = referenceImplementation(manifest);
  expect(skipReason(c, manifest)).toBeUndefined();
  const outcome = await impl.assemble(c.request, { timeoutMs: 10_000 });
  return judge(c, outcome, manifest);
}

describe('the bundled corpus', () => {
  it('loads without a problem', () => {
    expect(corpus.problems.map(formatProblem)).toEqual([]);
    expect(corpus.cases.length).toBeGreaterThanOrEqual(150);
  });

  it('covers every SPEC id outside the harness-covered prefixes', () => {
    const cited = new Set(corpus.cases.flatMap((c) => c.requirements));
    const uncovered = specRequirements()
      .filter((r) => !isCaseExempt(r.id) && !cited.has(r.id))
      .map((r) => r.id);
    expect(uncovered).toEqual([]);
  });

  it('every case file starts with the schema comment for editors', () => {
    const missing = corpus.cases
      .filter((c) => !readFileSync(c.file, 'utf8').startsWith('# yaml-language-server: $schema=../../judging/cases/case.schema.json\n'))
      .map((c) => c.id);
    expect(missing).toEqual([]);
    expect(BUNDLED_CASES_DIR.endsWith('cases')).toBe(true);
  });

  it('every case says since which spec version it holds, on the line after profile', () => {
    expect(corpus.cases.filter((c) => c.since !== 'v1').map((c) => c.id)).toEqual([]);
    const misplaced = corpus.cases.filter((c) => !/\nprofile: (tiered|ranked|any)\nsince: v1\n/.test(readFileSync(c.file, 'utf8'))).map((c) => c.id);
    expect(misplaced).toEqual([]);
  });
});

describe('the reference passes every case (every capability declared)', () => {
  for (const c of corpus.cases) {
    it(c.id, async () => {
      const v = await verdictFor(c, FULL);
      expect(v.status, v.message).toBe('pass');
    });
  }
});

describe('the reference passes every case (only the case capabilities declared)', () => {
  for (const c of corpus.cases) {
    it(c.id, async () => {
      const v = await verdictFor(c, { ...FULL, profiles: [c.profile], capabilities: [...c.capabilities] });
      expect(v.status, v.message).toBe('pass');
    });
  }
});
