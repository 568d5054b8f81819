/**
 * The property tests: every invariant holds for the reference at 1,000
 * runs with a fixed seed, for the core alone and with every capability on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceImplementation } from '../../adapters/reference.js';
import { runProperties, PROPERTIES } from '../../judging/properties/index.js';
import { request, ID_CHARS, genContext } from '../../judging/properties/arbitraries.js';
import type { GenRequest } from '../../judging/properties/arbitraries.js';
import { invalidRequest } from '../../judging/properties/corruptions.js';
import { describe as referenceManifest, isExpired, validateRequest } from '../../reference/index.js';
import type { Manifest } from '../../protocol/types.js';

const SEED = 20261129;
const RUNS = 1000;
const all = referenceManifest() as Manifest;
const manifests: [string, Manifest][] = [
  ['core only (tiered and ranked)', { ...all, capabilities: [] }],
  ['every capability', all],
];

describe.each(manifests)('reference, %s', (_label, manifest) => {
  const impl = referenceImplementation(manifest);
  it.each(PROPERTIES.filter((p) => p.applies(genContext(manifest))).map((p) => p.name))('property %s passes at 1000 runs', async (name) => {
    const [result] = await runProperties(impl, manifest, { runs: RUNS, seed: SEED, timeoutMs: 5000, only: [name] });
    expect(result, result?.message).toMatchObject({ id: `property/${name}`, kind: 'property', status: 'pass', num_runs: RUNS, seed: SEED });
    expect(result!.requirements.length).toBeGreaterThan(0);
  });
});

describe('the generators', () => {
  const gen = { profiles: ['tiered', 'ranked'], capabilities: all.capabilities };
  const sample: GenRequest[] = fc.sample(request(gen), { numRuns: 2000, seed: SEED });
  const share = (pred: (r: GenRequest) => boolean): number => sample.filter(pred).length / sample.length;
  const blocks = sample.flatMap((r) => r.blocks.map((b) => ({ r, b })));

  it('make only valid requests', () => {
    const bad = sample.map((r) => ({ r, problems: validateRequest(r) })).filter((x) => x.problems.length > 0);
    expect(bad.slice(0, 3)).toEqual([]);
  });

  it('hit the places implementations disagree on, often', () => {
    const astral = /[\u{10000}-\u{10ffff}]/u;
    expect(share((r) => r.blocks.some((b) => astral.test(b.block_id)))).toBeGreaterThan(0.2);
    expect(share((r) => r.blocks.some((b) => astral.test(b.content)))).toBeGreaterThan(0.3);
    expect(share((r) => new Set(r.blocks.map((b) => b.priority)).size < r.blocks.length)).toBeGreaterThan(0.3); // ties
    expect(blocks.filter(({ r, b }) => b.ttl_seconds! > 0 && b.created_at! + b.ttl_seconds! === r.now).length).toBeGreaterThan(100); // the boundary itself
    expect(share((r) => r.blocks.some((b) => isExpired(r.now, b.created_at ?? 0, b.ttl_seconds ?? 0)))).toBeGreaterThan(0.1);
    expect(share((r) => r.blocks.some((b) => b.content.includes('URGENT')))).toBeGreaterThan(0.05);
    expect(
      share((r) =>
        r.blocks.some((b) => !['memory', 'tactics', 'coverage', 'tool_results', 'episodes', 'session_summary', 'knowledge', 'waf_info'].includes(b.source)),
      ),
    ).toBeGreaterThan(0.2);
    expect(share((r) => r.budget <= 12)).toBeGreaterThan(0.2);
    expect(share((r) => r.budget > 1e9)).toBeGreaterThan(0.01);
    expect(share((r) => r.profile === 'ranked')).toBeGreaterThan(0.3);
    expect(share((r) => r.constraints !== undefined)).toBeGreaterThan(0.2);
    expect(share((r) => r.blocks.some((b) => b.pinned === true))).toBeGreaterThan(0.1);
    expect(share((r) => r.blocks.some((b) => b.status !== undefined))).toBeGreaterThan(0.2);
    expect(ID_CHARS).toContain('\uff5e'); // the UTF-16 / code-point disagreement needs it
  });

  it('put capability members only where the capability is declared', () => {
    const core: GenRequest[] = fc.sample(request({ profiles: ['tiered', 'ranked'], capabilities: [] }), { numRuns: 500, seed: SEED });
    for (const r of core) {
      expect(r.constraints).toBeUndefined();
      for (const b of r.blocks) expect(Object.keys(b).filter((k) => ['pinned', 'status', 'confidence'].includes(k))).toEqual([]);
    }
    const rankedOnly = sample.filter((r) => r.profile === 'ranked');
    for (const r of rankedOnly) expect(r.blocks.every((b) => b.pinned === undefined && b.status === undefined) && r.constraints === undefined).toBe(true);
  });

  it('corrupt exactly into invalid requests', () => {
    for (const x of fc.sample(invalidRequest(gen), { numRuns: 1000, seed: SEED })) {
      expect(validateRequest(x.request).length, `${x.what}: ${JSON.stringify(x.request)}`).toBeGreaterThan(0);
    }
  });
});
