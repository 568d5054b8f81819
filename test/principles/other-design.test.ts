/**
 * An assembler of another design judged on the any level over the whole
 * corpus: with its design declared it fails nothing, and each planted
 * deviation fails under its own principle and no other.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { runSuite } from '../../running/run.js';
import type { Manifest } from '../../protocol/types.js';
import { greedy, greedyManifest } from '../fixtures/other-designs/greedy.js';
import type { GreedyDefects } from '../fixtures/other-designs/greedy.js';

const corpus = loadCorpus();

const judgeCorpus = (assemble: (request: unknown) => unknown, manifest: Manifest) =>
  runSuite({
    cases: corpus.cases,
    impl: fromFunctions(assemble, undefined, manifest),
    manifest,
    timeoutMs: 5000,
    concurrency: 4,
    properties: 0,
    seed: 1,
  });

async function run(defects: GreedyDefects, manifest: Manifest = greedyManifest()) {
  const report = await judgeCorpus(greedy(defects), manifest);
  const failing = report.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip');
  // The principle ids each failure's message names first on its lines.
  const ids = new Set(failing.flatMap((c) => (c.message ?? '').split('\n').map((l) => /^(ANY-\d+)/.exec(l)?.[1] ?? `other: ${l.slice(0, 60)}`)));
  return { report, failing, ids: [...ids].sort() };
}

describe('another design at the any level', () => {
  it('with its design declared, it fails no case, and the tiered cases it is sent are judged by the principles', async () => {
    const { report, failing } = await run({});
    expect(failing.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    const passed = report.cases.filter((c) => c.status === 'pass');
    expect(passed.some((c) => c.id.startsWith('any/'))).toBe(true);
    expect(passed.filter((c) => !c.id.startsWith('any/')).length).toBeGreaterThan(100);
  });

  it('skips the validation cases unless it declares validates, and the ranked cases', async () => {
    const { report } = await run({});
    const skipped = report.cases.filter((c) => c.status === 'skip');
    expect(skipped.some((c) => c.id.startsWith('validation/') && /validation: not declared/.test(c.message ?? ''))).toBe(true);
    expect(skipped.some((c) => c.id.startsWith('ranked/') && /profile ranked is not declared/.test(c.message ?? ''))).toBe(true);
  });

  it(
    "declared with the specification design instead, it fails provenance (its headers are not REN-2's) and the " +
      'budget and the fill (its estimator counts empty content free), never as a cut',
    async () => {
      const { ids, failing } = await run({}, { ...greedyManifest(), design: undefined });
      // And, measured with an estimator that is not its own, blocks the kit finds fit are dropped for the budget (ANY-14).
      expect(ids).toEqual(['ANY-10', 'ANY-14', 'ANY-2']);
      const budget = failing.filter((c) => /^ANY-2 /m.test(c.message ?? ''));
      expect(budget.length).toBeGreaterThan(0);
      expect(budget.every((c) => /under the declared estimator \(floor\(code_points \/ 4\), at least 1: "[^"]+" \d+/.test(c.message ?? ''))).toBe(true);
    },
  );

  // A design that reads no expiry keeps an expired block (ANY-5), or, where none is kept, calls one it drops a budget drop:
  // a reason false of the block (ANY-4: "it is expired, which is its reason").
  const planted: [string, GreedyDefects, string, string?][] = [
    ['cut to fit', { cutToFit: true }, 'ANY-1'],
    ['a renderer that truncates long blocks', { truncateLines: 50 }, 'ANY-1'],
    ['a minimum number of chunks', { keepAtLeast: 4 }, 'ANY-2'],
    ['no expiry', { noExpiry: true }, 'ANY-5', 'ANY-4'],
    ['silent drops', { silentDrops: true }, 'ANY-3'],
    ['an undeclared placeholder', { placeholder: 'No relevant specifications found.' }, 'ANY-11'],
  ];
  for (const [what, defects, id, also] of planted) {
    it(`${what} fails under ${id}${also ? ` (and ${also}, where no expired block is kept)` : ''} alone`, async () => {
      const { ids, failing } = await run(defects);
      expect(failing.length).toBeGreaterThan(0);
      expect(ids.filter((x) => x !== also)).toEqual([id]);
      if (also) {
        const lines = failing.flatMap((c) => (c.message ?? '').split('\n')).filter((l) => l.startsWith(`${also} `));
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.filter((l) => !/, but it is expired \(now .*\), which is its reason$/.test(l))).toEqual([]);
      }
      // A tiered case judged by the principles fails under the principle, not under tiered's rules (SPEC LVL-3);
      // a case of the any level under its own requirements, with the principle it broke said apart.
      // (A renderer that truncates at 50 lines fails only the any level's cases: no tiered case has a block that long.)
      const tiered = failing.filter((c) => !c.id.startsWith('any/'));
      expect(tiered.length > 0 || defects.truncateLines !== undefined).toBe(true);
      const named = (c: { broke?: string[] }): string[] => c.broke ?? [];
      expect(tiered.filter((c) => c.requirements.some((r) => r !== id && r !== also)).map((c) => `${c.id} [${c.requirements.join(', ')}]`)).toEqual([]);
      expect(failing.filter((c) => !named(c).some((r) => r === id || r === also)).map((c) => c.id)).toEqual([]);
    });
  }
});

describe('the reference judged as a design of its own', () => {
  it('declaring only any, with every capability the principles read, it fails no case: the filters that apply to pinned blocks (PIN-5) are no silent drop', async () => {
    const { assemble } = await import('../../reference/index.js');
    const manifest: Manifest = {
      name: 'reference-as-any',
      // Its tiers split the budget its own way (DES-7): a drop for the budget is its own.
      design: { fill: 'own' },
      version: '1',
      profiles: ['any'],
      capabilities: ['pinned', 'constraints', 'lifecycle', 'working_context'],
      validates: true,
    };
    const capabilities = ['pinned', 'constraints', 'lifecycle', 'working_context'] as const;
    const report = await judgeCorpus((r) => assemble(r, { capabilities }), manifest);
    const failing = report.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip');
    expect(failing.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    // The cases of the filters on pinned blocks were judged, not skipped.
    expect(report.cases.filter((c) => /^pinned\/(excluded|superseded)-pinned$/.test(c.id)).map((c) => c.status)).toEqual(['pass', 'pass']);
  });
});
