/**
 * Lifecycle at the any level (SPEC section 18 with 8.3): a design that declares
 * `lifecycle` and includes superseded blocks, or disputed ones the request
 * leaves out, fails LIF-1 or LIF-2 by name; without the capability the level
 * does not judge status. Answers worked out by hand, then the corpus.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { principleFindings } from '../../judging/principles/checks.js';
import type { PrincipleRequest } from '../../judging/principles/finding.js';
import { designOf } from '../../judging/principles/design.js';
import { runSuite } from '../../running/run.js';
import type { Manifest } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';
import { greedy, greedyManifest } from '../fixtures/other-designs/greedy.js';

const req = (constraints?: PrincipleRequest['constraints']): PrincipleRequest => ({
  now: 0,
  budget: 100,
  blocks: [
    { block_id: 'old', source: 'kb', content: 'The key lives on the old host.', status: 'superseded' },
    { block_id: 'maybe', source: 'kb', content: 'The key may live in the vault.', status: 'disputed' },
  ],
  ...(constraints ? { constraints } : {}),
});
const both: Result = {
  context: '[kb · old]\nThe key lives on the old host.\n\n[kb · maybe]\nThe key may live in the vault.',
  included: ['old', 'maybe'],
  estimated_tokens: 14,
  total_budget: 100,
  omissions: [],
};
const ids = (r: PrincipleRequest, caps: string[]) => principleFindings(r, both, designOf(undefined), caps).map((f) => f.id);

describe('lifecycle at the any level', () => {
  it('a superseded block included is LIF-1 unless asked for; a disputed one LIF-2 only when left out', () => {
    expect(ids(req(), ['lifecycle'])).toEqual(['LIF-1']);
    expect(ids(req({ include_superseded: true }), ['lifecycle'])).toEqual([]);
    expect(ids(req({ include_disputed: false, include_superseded: true }), ['lifecycle'])).toEqual(['LIF-2']);
    expect(ids(req(), [])).toEqual([]);
  });

  it('an any design that declares lifecycle and keeps superseded blocks fails the corpus under LIF-1 alone', async () => {
    const manifest: Manifest = { ...greedyManifest('greedy-lifecycle'), capabilities: ['lifecycle'] };
    const report = await runSuite({
      cases: loadCorpus().cases,
      impl: fromFunctions(greedy(), undefined, manifest),
      manifest,
      timeoutMs: 5000,
      concurrency: 4,
      properties: 0,
      seed: 1,
    });
    const failing = report.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip');
    expect(failing.length).toBeGreaterThan(0);
    expect([...new Set(failing.flatMap((c) => c.broke ?? c.requirements))].sort()).toEqual(
      ['LIF-1', 'LIF-2'].filter((id) => failing.some((c) => (c.broke ?? c.requirements).includes(id))),
    );
    expect(failing.some((c) => (c.broke ?? []).includes('LIF-1'))).toBe(true);
  }, 60_000);
});
