/**
 * Results by kind and level: each golden case's level follows its
 * expectation, the corpus tags `invalid` exactly the cases that expect
 * invalid_request (what a report of an older kit is read by), a run stamps
 * every result with its kind's level, the schema holds each kind to its own
 * members, and an older report is read with the kinds and levels it lacks.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceImplementation } from '../../adapters/reference.js';
import { readReport } from '../../judging/baseline.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { caseLevel, INVALID_TAG } from '../../vocabulary/levels.js';
import { runSuite } from '../../running/run.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import { summarize } from '../../protocol/types.js';
import type { Report } from '../../protocol/types.js';

const corpus = loadCorpus().cases;

describe('levels', () => {
  it('a golden case is validation exactly when it expects invalid_request, and the corpus tags those cases invalid', () => {
    const validation = corpus.filter((c) => caseLevel(c) === 'validation');
    expect(validation.length).toBeGreaterThan(50);
    expect(validation.every((c) => c.expect.error === 'invalid_request')).toBe(true);
    expect(corpus.filter((c) => c.tags.includes(INVALID_TAG)).map((c) => c.id)).toEqual(validation.map((c) => c.id));
  });

  it('a run stamps each result with its level: validation cases, the invalid-requests property, profile for the rest', async () => {
    const impl = referenceImplementation();
    const manifest = await impl.describe();
    const cases = corpus.filter((c) => c.id.startsWith('validation/') || c.id.startsWith('tiers/'));
    const r = await runSuite({ cases, impl, manifest, timeoutMs: 5000, concurrency: 1, properties: 2, seed: 1 });
    const level = new Map(r.cases.map((c) => [c.id, c.level]));
    for (const c of cases) expect(level.get(c.id), c.id).toBe(c.expect.error === 'invalid_request' ? 'validation' : 'profile');
    expect(level.get('property/invalid-requests')).toBe('validation');
    expect(level.get('property/differential')).toBe('profile');
    const valid = validators.report();
    expect(valid(r), formatErrors(valid.errors).join('\n')).toBe(true);
  });
});

describe('the report schema holds each kind to its own members', () => {
  const report = (c: Record<string, unknown>): Report =>
    ({
      kit: { name: 'ctxconform', version: '0', spec: 'v1' },
      implementation: { name: 'x', version: '0', profiles: ['tiered'], capabilities: [] },
      summary: summarize([{ status: 'pass' }]),
      cases: [{ id: 'a/b', status: 'pass', requirements: [], duration_ms: 0, ...c }],
    }) as unknown as Report;

  it.each([
    [{ kind: 'case', level: 'profile', since: 'v1', tags: ['x'] }, true],
    [{ kind: 'property', level: 'profile', seed: 1, num_runs: 10 }, true],
    [{ kind: 'contract', level: 'contract', exchanges_tested: 3, seed: 1 }, true],
    [{ kind: 'replay', level: 'profile', counterexample: {}, stderr: 'e', stderr_in_flight: 2 }, true],
    [{ kind: 'case', level: 'profile', seed: 1 }, false],
    [{ kind: 'case', level: 'profile', counterexample: {} }, false],
    [{ kind: 'property', level: 'profile', stderr: 'e' }, false],
    [{ kind: 'contract', level: 'contract', since: 'v1' }, false],
    [{ kind: 'sweep', level: 'profile', exchanges_tested: 1 }, false],
    [{ kind: 'case', level: 'somewhere' }, false],
  ])('%j: valid %s', (c, ok) => {
    expect(validators.report()(report(c))).toBe(ok);
  });
});

describe('a report of a kit before kinds and levels', () => {
  it('is read with the kind from the id and the level from the kind, the tags and the property name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxconform-levels-'));
    const file = join(dir, 'old.json');
    const result = (id: string, extra: Record<string, unknown> = {}) => ({ id, status: 'pass', requirements: [], duration_ms: 0, ...extra });
    const cases = [
      result('validation/budget-boolean', { tags: ['invalid'] }),
      result('tiers/working-first', { tags: ['tiers'] }),
      result('property/invalid-requests'),
      result('property/budget'),
      result('contract/answers'),
      result('replay/x.jsonl:1'),
    ];
    writeFileSync(
      file,
      JSON.stringify({
        kit: { name: 'ctxconform', version: '0.0.9', spec: 'v1' },
        implementation: { name: 'x', version: '0', profiles: ['tiered'], capabilities: [] },
        summary: { total: 6, pass: 6, fail: 0, error: 0, timeout: 0, crash: 0, skip: 0 },
        cases,
      }),
    );
    expect(readReport(file).cases.map((c) => [c.id, c.kind, c.level])).toEqual([
      ['validation/budget-boolean', 'case', 'validation'],
      ['tiers/working-first', 'case', 'profile'],
      ['property/invalid-requests', 'property', 'validation'],
      ['property/budget', 'property', 'profile'],
      ['contract/answers', 'contract', 'contract'],
      ['replay/x.jsonl:1', 'replay', 'profile'],
    ]);
  });
});
