/**
 * A new defect is one module holding its hook override and its catalogue
 * entry, with no edit elsewhere. A made-up one (test/diagnose/fake-defect/:
 * content-upper-cased.ts, nothing else) is registered by the loader that
 * registers the built-in defect modules of diagnosis/defects/,
 * from its folder alone; the diagnosis then names it for an implementation
 * that has it, alone and beside another defect of the catalogue.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, diagnose, FAMILIES, modelAssemble } from '../../diagnosis/index.js';
import { SPEC_HOOKS } from '../../diagnosis/hooks.js';
import { DEFECTS_DIR, registerDefect, registerDefectsIn, unregisterDefect } from '../../diagnosis/defect-registry.js';
import { CORE, FAMILY_EXAMPLES, MEMO, modelImplementation, observe } from './helpers.js';

const FAKE = fileURLToPath(new URL('./fake-defect/', import.meta.url));
const ID = 'content-upper-cased';
const fake = () => CATALOGUE.find((e) => e.id === ID)!;

beforeAll(() => registerDefectsIn(FAKE));
afterAll(() => unregisterDefect(ID));

describe('a defect added as its module', () => {
  it('is that one file, registered from its folder into its section of the catalogue', () => {
    expect(readdirSync(FAKE)).toEqual(['content-upper-cased.ts']);
    const at = CATALOGUE.findIndex((e) => e.id === ID);
    expect(at).toBeGreaterThan(0);
    expect(CATALOGUE[at - 1]!.section).toBe('rendering');
    expect(CATALOGUE.slice(at + 1).some((e) => e.section === 'rendering')).toBe(false);
  });

  it('overrides its hook and nothing else: the model with it changes only the content', () => {
    const request = {
      profile: 'tiered',
      now: 0,
      budget: 100,
      blocks: [{ block_id: 'a', source: 'memory', content: 'quiet words', priority: 1 }],
    };
    const plain = modelAssemble(request, { capabilities: [] });
    expect(modelAssemble(request, { capabilities: [] }, fake().defects)).toEqual({ ...plain, context: '[memory \u00b7 a]\nQUIET WORDS' });
  });

  it('is named by the diagnosis of an implementation that has it', async () => {
    const observations = await observe(modelImplementation(fake().defects, CORE), CORE);
    const failing = observations.filter((o) => !o.passed).length;
    expect(failing).toBeGreaterThan(0);
    const d = diagnose(observations, { memo: MEMO })!;
    expect(d.causes[0]).toMatchObject({ id: ID, requirements: ['REN-4'], explains: failing, contradicts: 0 });
    expect(d.unexplained).toEqual([]);
  });

  it('composes with another defect: an implementation with both gets both named', async () => {
    const both = { ...fake().defects, ...CATALOGUE.find((e) => e.id === 'no-overflow-pool')!.defects };
    const d = diagnose(await observe(modelImplementation(both, CORE), CORE), { memo: MEMO })!;
    expect(d.causes.flatMap((c) => c.defects)).toEqual(expect.arrayContaining([ID, 'no-overflow-pool']));
    expect(d.unexplained).toEqual([]);
  });

  it('is refused when its name is taken, and a module without an entry is an error naming the file', async () => {
    expect(() => registerDefect(fake())).toThrow(/content-upper-cased is registered already/);
    const dir = mkdtempSync(join(tmpdir(), 'ctxconform-defects-'));
    try {
      writeFileSync(join(dir, 'not-a-defect.ts'), 'export const x = 1;\n');
      await expect(registerDefectsIn(dir)).rejects.toThrow(/not-a-defect\.ts is in the defects' folder but default-exports no defect \(defineDefect/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is refused when it overrides a hook the model does not have, or none', () => {
    const entry = { id: 'misspelt-hook', section: 'rendering' as const, requirements: ['REN-4'], summary: 'x', defects: {} };
    expect(() => registerDefect({ ...entry, defects: { boddy: (c: string) => c } as never })).toThrow(
      /misspelt-hook overrides no hook of the model named boddy/,
    );
    expect(() => registerDefect(entry)).toThrow(/misspelt-hook overrides no hook$/);
    expect(CATALOGUE.some((e) => e.id === 'misspelt-hook')).toBe(false);
  });

  it('every hook of the model is overridden by some defect of the catalogue or some family (no hook is dead)', () => {
    const used = new Set([...CATALOGUE, ...Object.values(FAMILY_EXAMPLES).map((defects) => ({ defects }))].flatMap((e) => Object.keys(e.defects)));
    expect(Object.keys(SPEC_HOOKS).filter((k) => !used.has(k))).toEqual([]);
    expect(Object.keys(FAMILY_EXAMPLES).sort()).toEqual(FAMILIES.map((f) => f.id).sort());
  });

  it('the built-in defect modules are the files of their folder, each in the catalogue', () => {
    const files = readdirSync(DEFECTS_DIR).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files)
      expect(
        CATALOGUE.some((e) => `${e.id}.ts` === f),
        f,
      ).toBe(true);
  });
});
