/**
 * A recorded request of a manifest of the any level alone is judged by the
 * principles (SPEC section 18), as the golden cases and the properties are:
 * no reference, the failing principle named, an invalid request skipped
 * unless validation is declared.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { judgeRecorded } from '../../traffic/replay/judge.js';
import { greedy, greedyManifest } from '../fixtures/other-designs/greedy.js';

const requests = loadCorpus()
  .cases.filter((c) => c.profile !== 'ranked')
  .map((c) => c.request);

describe('replay at the any level', () => {
  it('another design with its design declared passes every valid recorded request and skips the invalid ones', async () => {
    const manifest = greedyManifest();
    const impl = fromFunctions(greedy(), undefined, manifest);
    const verdicts = await Promise.all(requests.map((r) => judgeRecorded(impl, manifest, r, { timeoutMs: 5000, twice: true })));
    expect(verdicts.filter((j) => j.verdict.status !== 'pass' && j.verdict.status !== 'skip').map((j) => j.verdict.message)).toEqual([]);
    const skipped = verdicts.filter((j) => j.verdict.status === 'skip');
    expect(skipped.length).toBeGreaterThan(10);
    expect(skipped.every((j) => /validation: not declared|not declared by the implementation/.test(j.verdict.message ?? ''))).toBe(true);
  });

  it('a cut block fails under ANY-1 with the property that holds it, and no differential', async () => {
    const manifest = greedyManifest();
    const impl = fromFunctions(greedy({ cutToFit: true }), undefined, manifest);
    const verdicts = await Promise.all(requests.map((r) => judgeRecorded(impl, manifest, r, { timeoutMs: 5000, twice: false })));
    const failing = verdicts.filter((j) => j.verdict.status === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    expect([...new Set(failing.flatMap((j) => j.verdict.requirements))]).toEqual(['ANY-1']);
    expect([...new Set(failing.flatMap((j) => j.verdict.checks ?? []))]).toEqual(['any-whole-blocks']);
  });

  it('declared validating, it is judged on the invalid requests and fails them, since it does not validate', async () => {
    const manifest = { ...greedyManifest(), validates: true };
    const impl = fromFunctions(greedy(), undefined, manifest);
    const verdicts = await Promise.all(requests.map((r) => judgeRecorded(impl, manifest, r, { timeoutMs: 5000, twice: false })));
    expect(verdicts.some((j) => j.verdict.status === 'fail' && (j.verdict.checks ?? []).includes('differential'))).toBe(true);
  });
});
