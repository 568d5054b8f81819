/**
 * "Not this design" (SPEC section 18): when no catalogue model reproduces the
 * failing answers, the likely cause names the principle they break with how
 * many failures it explains; a tiered run whose failures break no principle is
 * told they are differences of design and where a design of one's own is judged.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { ObservationLog } from '../../diagnosis/log.js';
import { runSuite } from '../../running/run.js';
import { likelyCause } from '../../running/likely-cause.js';
import { assemble as reference } from '../../reference/index.js';
import type { Manifest } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';
import { greedy, greedyManifest } from '../fixtures/other-designs/greedy.js';

const corpus = loadCorpus();
const TIERED: Manifest = { name: 'x', version: '1', profiles: ['tiered'], capabilities: [] };

async function causeText(assemble: (r: unknown) => unknown, manifest: Manifest): Promise<string> {
  const observations = new ObservationLog();
  const report = await runSuite({
    cases: corpus.cases,
    impl: fromFunctions(assemble, undefined, manifest),
    manifest,
    timeoutMs: 5000,
    concurrency: 4,
    properties: 0,
    seed: 1,
    observations,
  });
  return (await likelyCause(report, observations))?.text ?? '';
}

/** The reference, with the first block it omitted for the budget cut into the context at 12 characters: a defect no catalogue entry models. */
function cutsTheFirstOmitted(request: unknown): unknown {
  const out = reference(request, { capabilities: [] }) as Result;
  const req = request as { blocks?: { block_id: string; content: string }[] };
  const dropped = out.omissions?.find((o) => o.reason.includes('budget'));
  const block = dropped && req.blocks?.find((b) => b.block_id === dropped.block_id);
  if (!block || block.content.length < 16) return out;
  return { ...out, context: out.context + (out.context ? '\n\n' : '') + block.content.slice(0, 12) };
}

describe('a diagnosis that can say "not this design"', () => {
  it('names the broken principle, with how many failures it explains, when no known defect reproduces', async () => {
    const text = await causeText(cutsTheFirstOmitted, TIERED);
    expect(text).toMatch(/blocks are cut to fit, or parts of dropped blocks appear \(ANY-1\): explains \d+ of \d+ failures/);
  });

  it('says a tiered run of another design fails on design differences, and points to the any level', async () => {
    const text = await causeText(greedy(), { ...greedyManifest(), profiles: ['tiered'], design: undefined });
    expect(text).toMatch(/failures break no design-agnostic principle but, at most, REN-2.s render: differences of design/);
    expect(text).toContain('"profiles": ["any"]');
  });

  it('the same design declared at the any level fails nothing, so there is nothing to diagnose', async () => {
    expect(await causeText(greedy(), greedyManifest())).toBe('');
  });
});
