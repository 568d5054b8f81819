/**
 * The properties alone (no golden case) catch each broken implementation
 * within 500 runs at a fixed seed (most within 40; a wrong-case source needs a
 * binding budget and takes longest); the failure is shrunk, replays from its
 * seed and path, and saves as a golden case that the reference passes and the
 * broken implementation fails.
 */
import { ANY_LEVEL_PROPERTIES } from '../../judging/properties/any-level.js';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fromFunctions, openModule } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { judge } from '../../judging/judge.js';
import { replayProperty, runProperties } from '../../judging/properties/index.js';
import { caseValidator } from '../../judging/cases/schema.js';
import type { CaseResult, Implementation, Manifest } from '../../protocol/types.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import { assemble as referenceAssemble } from '../../reference/index.js';

const SEED = 20261129;
const DIR = new URL('../fixtures/broken/', import.meta.url).pathname;
const MUTANTS = readdirSync(DIR)
  .filter((f) => f.endsWith('.ts') && !['mutant.ts', 'correct.ts', 'known-defects.ts'].includes(f))
  .map((f) => f.slice(0, -3))
  .sort();
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-counterexamples-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function open(name: string): Promise<{ impl: Implementation; manifest: Manifest }> {
  const impl = await openModule(join(DIR, `${name}.ts`));
  return { impl, manifest: await impl.describe() };
}

const strip = (rs: CaseResult[]): unknown => rs.map(({ duration_ms: _d, ...r }) => r);

it('there are at least ten broken implementations, each declaring the tiered core only', async () => {
  expect(MUTANTS.length).toBeGreaterThanOrEqual(10);
  for (const m of MUTANTS) expect((await open(m)).manifest).toMatchObject({ profiles: ['tiered'], capabilities: [] });
});

it("the broken implementations' shared core, with no defect, passes every property at 1000 runs", async () => {
  const { impl, manifest } = await open('correct');
  const results = await runProperties(impl, manifest, { runs: 1000, seed: SEED, timeoutMs: 5000 });
  expect(results.filter((r) => r.status !== 'pass' && r.status !== 'skip').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  // A tiered manifest is judged exactly: the any level's properties are not even listed for it.
  expect(results.map((r) => r.id).filter((id) => ANY_LEVEL_PROPERTIES.some((p) => id === `property/${p.name}`))).toEqual([]);
});

describe.each(MUTANTS)('%s', (name) => {
  it('fails the properties within 500 runs, shrunk, replayable and saved as a case', async () => {
    const { impl, manifest } = await open(name);
    const dir = join(tmp, name);
    const results = await runProperties(impl, manifest, { runs: 500, seed: SEED, timeoutMs: 5000, saveCounterexamples: dir });
    const failed = results.filter((r) => r.status !== 'pass' && r.status !== 'skip');
    expect(failed.length, `no property caught ${name}`).toBeGreaterThan(0);
    // Every one of these defects changes an answer the reference gives.
    const diff = failed.find((r) => r.id === 'property/differential');
    expect(diff, 'the differential property did not fail').toBeDefined();
    for (const r of failed) {
      expect(r).toMatchObject({ kind: 'property', status: 'fail', seed: SEED });
      expect(r.num_runs).toBeLessThanOrEqual(500);
      expect(r.path).toMatch(/^\d+(:\d+)*$/);
      expect(r.message).toContain(`seed ${SEED}`);
      expect(typeof r.message === 'string' && Number.isInteger(r.seed) && r.requirements.length > 0).toBe(true);
    }

    // The shrunk request really is one the implementation gets wrong, and it is small.
    const req = diff!.counterexample as { blocks: unknown[] };
    expect(req.blocks.length).toBeLessThanOrEqual(5);
    const outcome = await impl.assemble(req, { timeoutMs: 5000 });
    expect(outcome.kind === 'result' ? outcome.value : outcome).not.toEqual(referenceAssemble(req, { capabilities: [] }));

    // Replaying at the seed and path gives the same counterexample at once.
    const again = await replayProperty('differential', impl, manifest, { seed: SEED, path: diff!.path!, timeoutMs: 5000 });
    expect(again.status).toBe('fail');
    expect(again.counterexample).toEqual(diff!.counterexample);

    // The saved case is valid, the reference passes it and the broken implementation fails it.
    const files = readdirSync(dir);
    expect(files.length).toBe(failed.length);
    const text = readFileSync(join(dir, `differential-${SEED}.yaml`), 'utf8');
    expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=.*case\.schema\.json$/);
    const doc = YAML.parse(text) as Omit<GoldenCase, 'id' | 'file'>;
    expect(caseValidator()(doc), JSON.stringify(caseValidator().errors)).toBe(true);
    expect(doc.tags).toContain('counterexample');
    const c: GoldenCase = { id: `counterexamples/${name}`, file: 'x.yaml', ...doc };
    const reference = referenceImplementation({ ...manifest, name: 'reference' });
    expect(judge(c, await reference.assemble(c.request, { timeoutMs: 5000 }), manifest).status).toBe('pass');
    expect(judge(c, await impl.assemble(c.request, { timeoutMs: 5000 }), manifest).status).toBe('fail');
  });
});

it('the same seed gives the same report; another seed other requests', async () => {
  const { impl, manifest } = await open('utf16-id-order');
  const a = await runProperties(impl, manifest, { runs: 200, seed: 7, timeoutMs: 5000 });
  const b = await runProperties(impl, manifest, { runs: 200, seed: 7, timeoutMs: 5000 });
  const c = await runProperties(impl, manifest, { runs: 200, seed: 8, timeoutMs: 5000 });
  expect(strip(b)).toEqual(strip(a));
  expect(strip(c)).not.toEqual(strip(a));
});

describe('an implementation that misbehaves is a result, not an exception', () => {
  const manifest: Manifest = { name: 'odd', version: '0', profiles: ['tiered'], capabilities: [] };
  const manyBlocks = (req: unknown): boolean => ((req as { blocks?: unknown[] })?.blocks?.length ?? 0) >= 3;

  it('a throw is a crash, shrunk to a request that still crashes it', async () => {
    const impl = fromFunctions(
      (req) => {
        if (manyBlocks(req)) throw new TypeError('boom');
        return referenceAssemble(req, { capabilities: [] });
      },
      undefined,
      manifest,
    );
    const [r] = await runProperties(impl, manifest, { runs: 200, seed: SEED, timeoutMs: 5000, only: ['partition'] });
    expect(r).toMatchObject({ status: 'crash' });
    expect(r!.message).toContain('boom');
    expect((r!.counterexample as { blocks: unknown[] }).blocks).toHaveLength(3);
  });

  it('no answer in time is a timeout', async () => {
    const impl = fromFunctions((req) => (manyBlocks(req) ? new Promise(() => {}) : referenceAssemble(req, { capabilities: [] })), undefined, manifest);
    const [r] = await runProperties(impl, manifest, { runs: 200, seed: SEED, timeoutMs: 20, only: ['determinism'] });
    expect(r).toMatchObject({ status: 'timeout' });
  });

  it('an answer that breaks the result schema is an error', async () => {
    const impl = fromFunctions((req) => ({ ...(referenceAssemble(req, { capabilities: [] }) as object), instructions: 'obey' }), undefined, manifest);
    const [r] = await runProperties(impl, manifest, { runs: 50, seed: SEED, timeoutMs: 5000, only: ['differential'] });
    expect(r).toMatchObject({ status: 'error' });
    expect(r!.message).toContain('RES-1');
  });

  it('accepting an invalid request fails invalid-requests', async () => {
    const impl = fromFunctions(
      (req) => {
        const out = referenceAssemble(req, { capabilities: [] });
        // Lenient about a negative budget: answers as if it were 0.
        if ((req as { budget?: unknown })?.budget === -1) return referenceAssemble({ ...(req as object), budget: 0 }, { capabilities: [] });
        return out;
      },
      undefined,
      manifest,
    );
    const [r] = await runProperties(impl, manifest, { runs: 1000, seed: SEED, timeoutMs: 5000, only: ['invalid-requests'] });
    expect(r).toMatchObject({ status: 'fail' });
    expect(r!.message).toContain('budget is negative');
  });
});
