/**
 * Declared refusals (SPEC DES-6): a design that refuses a budget of 0, an empty
 * content, a lone surrogate or special-token text with an error declares it,
 * and those exchanges are skipped with the reason; an undeclared refusal of a
 * valid request still fails ANY-13, and so does a refusal of a request that
 * holds none of what is declared. Written from a description of a Rust-backed
 * assembler: its strings cannot hold a lone surrogate, and it rejects a zero
 * budget and empty texts up front.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { designOf } from '../../judging/principles/design.js';
import { refusable } from '../../judging/principles/refusals.js';
import { principleVerdict } from '../../judging/principles/verdict.js';
import { runSuite } from '../../running/run.js';
import type { DeclaredRefusal, Manifest } from '../../protocol/types.js';
import { greedy, greedyManifest } from '../fixtures/other-designs/greedy.js';

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The greedy design behind a front that refuses what a Rust service would, before assembling. */
function strict(request: unknown): unknown {
  const r = request as { budget: number; blocks: { content: string; block_id: string; source: string }[] };
  if (r.budget === 0) return { error: { code: 'invalid_request', message: 'budget must be positive' } };
  if (r.blocks.some((b) => b.content === '')) return { error: { code: 'invalid_request', message: 'empty text' } };
  if (r.blocks.some((b) => [b.content, b.block_id, b.source].some((t) => LONE.test(t))))
    return { error: { code: 'invalid_request', message: 'invalid UTF-8' } };
  return greedy()(request);
}

const corpus = loadCorpus();
const run = (manifest: Manifest) =>
  runSuite({ cases: corpus.cases, impl: fromFunctions(strict, undefined, manifest), manifest, timeoutMs: 5000, concurrency: 4, properties: 200, seed: 7 });
const withRefusals = (refuses: DeclaredRefusal[]): Manifest => ({ ...greedyManifest('strict'), design: { ...greedyManifest().design!, refuses } });

describe('declared refusals', () => {
  it('undeclared, each refusal of a valid request fails ANY-13', async () => {
    const report = await run(greedyManifest('strict'));
    const failing = report.cases.filter((c) => c.status === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.every((c) => /^ANY-13 a valid request got the error invalid_request/m.test(c.message ?? ''))).toBe(true);
  }, 120_000);

  it('declared, the same refusals are skipped with the reason, and nothing fails', async () => {
    const report = await run(withRefusals(['budget_zero', 'empty_content', 'lone_surrogate']));
    expect(report.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    const refused = report.cases.filter((c) => c.status === 'skip' && /^refused as the design declares/.test(c.message ?? ''));
    expect(refused.some((c) => /budget_zero/.test(c.message ?? ''))).toBe(true);
    expect(refused.some((c) => /empty_content/.test(c.message ?? ''))).toBe(true);
  }, 120_000);

  it('declaring one refusal does not excuse another', async () => {
    const report = await run(withRefusals(['budget_zero']));
    const failing = report.cases.filter((c) => c.status === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.every((c) => /the error invalid_request: (empty text|invalid UTF-8)/.test(c.message ?? ''))).toBe(true);
  }, 120_000);

  it('reads what a request holds, and judges a result to a declared refusal as any result', () => {
    expect(refusable({ budget: 0, blocks: [{ content: '' }, { content: 'a\ud800', block_id: 'x', source: 's' }, { content: 'x<|endoftext|>' }] })).toEqual([
      'budget_zero',
      'empty_content',
      'lone_surrogate',
      'special_tokens',
    ]);
    expect(refusable({ budget: 5, blocks: [{ content: '\u{1f600} <|not_special|>' }] })).toEqual([]);
    const design = designOf({ refuses: ['budget_zero'] });
    const request = { now: 0, budget: 0, blocks: [{ block_id: 'a', source: 's', content: 'some text here' }] };
    // A result that invents a block is judged, declared refusal or not.
    const v = principleVerdict(
      request,
      { kind: 'result', value: { context: '', included: [], estimated_tokens: 0, total_budget: 0, omissions: [] } },
      design,
      [],
    );
    expect(v.status).toBe('fail');
    const error = { code: 'invalid_request', message: 'no' };
    expect(principleVerdict(request, { kind: 'error', ...error, value: { error } }, design, []).status).toBe('skip');
    expect(principleVerdict({ ...request, budget: 3 }, { kind: 'error', ...error, value: { error } }, design, []).status).toBe('fail');
  });
});
