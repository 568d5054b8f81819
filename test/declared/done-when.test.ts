/**
 * Declared constants (SPEC section 17), end to end: an
 * implementation tuned to a 50/20/20/10 split and 3 characters per token
 * that declares it passes every case and every property; the same
 * implementation without the declaration fails; one with the specification's
 * constants that declares the tuned ones fails, and the probe names each
 * constant it declares and does not have. The tuned core is the compact
 * second implementation of test/fixtures/broken/mutant.ts, not the reference.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openModule } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { main } from '../../cli/main.js';
import { probeConstants } from '../../diagnosis/constants/index.js';
import type { ProbeReport } from '../../diagnosis/constants/index.js';
import { runSuite } from '../../running/run.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Report } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { TUNED } from '../fixtures/declared/constants.js';

const DIR = new URL('../fixtures/declared/', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-declared-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const corpus = loadCorpus().cases;
const RUNS = 300;

async function suite(fixture: string): Promise<Report> {
  const impl = await openModule(join(DIR, `${fixture}.ts`));
  return runSuite({ cases: corpus, impl, manifest: await impl.describe(), timeoutMs: 10_000, concurrency: 1, properties: RUNS, seed: 14 });
}

const notPassing = (r: Report): string[] =>
  r.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.id}: ${c.status}: ${c.message?.split('\n').slice(0, 2).join(' | ')}`);
const properties = (r: Report) => r.cases.filter((c) => c.kind === 'property');

describe('a tuned implementation that declares its constants', () => {
  it(`passes every case it runs and every property (${RUNS} runs), reported as tiered with declared constants`, async () => {
    const r = await suite('tuned');
    expect(notPassing(r)).toEqual([]);
    // It declares the tiered core only: the ranked and capability cases skip for that, and nothing else skips.
    const skipped = r.cases.filter((c) => c.status === 'skip');
    expect(
      skipped.filter((c) => !/^(capabilit(y|ies) .* not declared|profile ranked is not declared)/.test(c.message ?? '')).map((c) => `${c.id}: ${c.message}`),
    ).toEqual([]);
    const ran = r.cases.filter((c) => c.kind === 'case' && c.status === 'pass');
    expect(ran.length).toBeGreaterThan(200);
    expect(properties(r).map((p) => [p.id, p.status])).toEqual(properties(r).map((p) => [p.id, 'pass']));
    expect(properties(r).length).toBe(10);
    expect(properties(r).every((p) => p.num_runs === RUNS)).toBe(true);
    expect(r.run?.constants).toEqual(TUNED);
    // The cases whose expectation the constants change say so, and only those.
    const derived = resultsOf(r.cases, 'case').filter((c) => c.declared_constants);
    expect(derived.length).toBeGreaterThan(30);
    expect(derived.length).toBeLessThan(ran.length);
    expect(derived.map((c) => c.id)).toContain('numbers/hundred-code-points-cost-25');
    expect(derived.map((c) => c.id)).not.toContain('rendering/header-bytes');
    const valid = validators.report();
    expect(valid(r), formatErrors(valid.errors).join('\n')).toBe(true);
  }, 120_000);

  it('with every capability (the reference configured with them), passes the whole corpus and every property', async () => {
    const r = await suite('tuned-reference');
    expect(notPassing(r)).toEqual([]);
    expect(r.cases.filter((c) => c.status === 'skip').map((c) => c.id)).toEqual([]);
    expect(r.summary.pass).toBe(corpus.length + 10);
    // pinned_overflow is decided by the constants: at 3 characters per token some pinned blocks no longer fit.
    expect(resultsOf(r.cases, 'case').filter((c) => c.declared_constants?.includes('error')).length).toBeGreaterThan(0);
  }, 120_000);
});

describe('the same implementation without the declaration', () => {
  it('fails cases and the differential property, as plain tiered', async () => {
    const r = await suite('tuned-undeclared');
    expect(notPassing(r).length).toBeGreaterThan(30);
    expect(properties(r).find((p) => p.id === 'property/differential')?.status).toBe('fail');
    expect(properties(r).find((p) => p.id === 'property/budget')?.status).toBe('fail');
    expect(r.run?.constants).toBeUndefined();
    expect(resultsOf(r.cases, 'case').some((c) => c.declared_constants)).toBe(false);
  }, 120_000);
});

describe("an implementation with the specification's constants that declares the tuned ones", () => {
  it('fails cases and properties, each failing case saying its expectation came from the declared constants', async () => {
    const r = await suite('spec-declares-tuned');
    const failing = resultsOf(r.cases, 'case').filter((c) => c.status === 'fail');
    expect(failing.length).toBeGreaterThan(30);
    for (const c of failing) {
      expect(c.message, c.id).toMatch(/^judged with the declared constants: .* from the reference computed with them \(SPEC DECL-4\)/);
      expect(c.declared_constants?.length, c.id).toBeGreaterThan(0);
    }
    expect(properties(r).find((p) => p.id === 'property/differential')?.status).toBe('fail');
  }, 120_000);

  it('the probe names each constant it declares and does not have, and only those', async () => {
    const impl = await openModule(join(DIR, 'spec-declares-tuned.ts'));
    const r = await probeConstants(impl, await impl.describe(), { timeoutMs: 5000 });
    const drifted = Object.fromEntries(r.constants.filter((c) => c.status !== 'match').map((c) => [c.constant, [c.expected, c.detected]]));
    expect(drifted).toEqual({
      chars_per_token: ['3', '4'],
      'tier_fraction.working': ['0.5 (500 of 1000)', '0.4 (400 of 1000)'],
      'tier_fraction.longterm': ['0.2 (200 of 1000)', '0.25 (250 of 1000)'],
      'tier_fraction.knowledge': ['0.1 (100 of 1000)', '0.15 (150 of 1000)'],
      'tier_of[notes (declared)]': ['knowledge', 'working'],
    });
    for (const c of r.constants.filter((x) => x.status !== 'match')) {
      expect(c.declared, c.constant).toBe(true);
      expect(c.note, c.constant).toMatch(new RegExp(`^declared ${c.expected.replace(/[()]/g, '\\$&')} in the manifest`));
    }
    // A declared share equal to the specification's is declared too, and matches.
    expect(r.constants.find((c) => c.constant === 'tier_fraction.episodic')).toMatchObject({ status: 'match', declared: true });
    expect(r.declared).toEqual(TUNED);
  });
});

describe('ctxconform constants with a pinned manifest (docs/constants.md)', () => {
  const pinned = join(tmp, 'pinned.json');
  writeFileSync(pinned, JSON.stringify({ name: 'tuned', version: '1.0.0', profiles: ['tiered'], capabilities: [], constants: TUNED }));

  async function probe(...args: string[]): Promise<{ status: number; out: string; json: ProbeReport }> {
    const file = join(tmp, `probe-${Math.random().toString(36).slice(2)}.json`);
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
    try {
      const status = await main(['constants', ...args, '--json', file]);
      return { status, out: lines.join('\n'), json: JSON.parse(readFileSync(file, 'utf8')) as ProbeReport };
    } finally {
      log.mockRestore();
    }
  }

  it('exits 0 when the implementation has the pinned constants', async () => {
    const r = await probe('--module', join(DIR, 'tuned-undeclared.ts'), '--manifest', pinned);
    expect(r.status).toBe(0);
    expect(r.out).toContain(
      'declared in its manifest: chars_per_token 3; tier_fractions 50/20/20/10 (working/episodic/longterm/knowledge); source_to_tier notes -> knowledge',
    );
    expect(r.out).toContain('no drift: every constant matches the declared constants and the specification');
    expect(r.json.declared).toEqual(TUNED);
  });

  it('exits 1 when a change moved one, and names it', async () => {
    const r = await probe('--module', join(DIR, 'spec-declares-tuned.ts'), '--manifest', pinned);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/^ {2}chars_per_token: declared 3 in the manifest$/m);
    expect(r.out).toMatch(/^ {2}tier_of\[notes \(declared\)\]: declared knowledge in the manifest$/m);
    expect(r.out).toContain('DRIFT: 5 constants differ from the declared constants and the specification');
  });
});
