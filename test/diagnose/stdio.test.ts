/**
 * The diagnosis's acceptance test through stdio: the same diagnosis when the answers
 * come as JSON text from another process (-0 written as 0, undefined members
 * gone, NaN requests not sent). An implementation with one catalogue defect,
 * one of each section, gets it as its one diagnosis; one with two gets both;
 * the Python example, a correct core implementation written independently,
 * gets none, with the specification's constants and with declared ones.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE, diagnose } from '../../diagnosis/index.js';
import type { Diagnosis } from '../../diagnosis/index.js';
import { openImplementation } from '../../running/open.js';
import { TUNED } from '../fixtures/declared/constants.js';
import { MEMO, observe } from './helpers.js';
import { fixtureCommand } from '../fixture-command.js';

const fixture = fileURLToPath(new URL('../fixtures/diagnose/model-stdio.ts', import.meta.url));
const python = fileURLToPath(new URL('../../adapters/examples/python/impl.py', import.meta.url));
const hasPython = spawnSync('python3', ['--version']).status === 0;

async function diagnoseOver(stdio: string): Promise<{ failing: number; d: Diagnosis | undefined }> {
  const opened = await openImplementation({ transport: 'stdio', config: { command: stdio, processes: 1 }, timeoutMs: 10_000 });
  try {
    const observations = await observe(opened.impl, opened.manifest);
    return { failing: observations.filter((o) => !o.passed).length, d: diagnose(observations, { memo: MEMO }) };
  } finally {
    await opened.impl.close();
  }
}

const model = (manifest: 'full' | 'core', ids: string[]): string => fixtureCommand(fixture, manifest, ids.join(','));

/** One entry of each section, the ones JSON text could blur first among them. */
const ONE_PER_SECTION = [
  'null-read-as-absent',
  'utf16-lengths',
  'ceil-estimate',
  'case-insensitive-sources',
  'remainder-in-pool',
  'inclusive-expiry',
  'signed-zero-order',
  'content-trimmed',
  'omissions-sorted-by-id',
  'pinned-included-in-id-order',
  'max-segments-before-selection',
  'stale-treated-as-superseded',
  'segment-score-is-tokens',
  'markers-before-everything',
  'ranked-date-truncated',
  'tier-split-50-15-20-15',
];

describe('one defect over stdio: it is the diagnosis', () => {
  it('takes one entry of every section', () => {
    const sections = new Set(ONE_PER_SECTION.map((id) => CATALOGUE.find((e) => e.id === id)!.section));
    expect([...new Set(CATALOGUE.map((e) => e.section))].filter((s) => !sections.has(s))).toEqual([]);
  });

  it.each(ONE_PER_SECTION)('%s', async (id) => {
    const { failing, d } = await diagnoseOver(model('full', [id]));
    expect(failing).toBeGreaterThan(0);
    expect(d?.causes.map((c) => `${c.id} ${c.explains}/${c.failing} contradicts ${c.contradicts}`)).toEqual([`${id} ${failing}/${failing} contradicts 0`]);
  });

  it('a core implementation with the rounding remainder in the pool (as in a vendor Python assembler)', async () => {
    const { failing, d } = await diagnoseOver(model('core', ['remainder-in-pool']));
    expect(d?.causes.map((c) => [c.id, c.explains, c.failing])).toEqual([['remainder-in-pool', failing, failing]]);
  });
});

describe('two defects over stdio: both are named in the top two', () => {
  it.each([
    ['remainder-in-pool', 'inclusive-expiry'],
    ['ties-by-input-order', 'null-read-as-absent'],
  ])('%s with %s', async (a, b) => {
    const { d } = await diagnoseOver(model('full', [a!, b!]));
    expect(new Set(d?.causes.slice(0, 2).flatMap((c) => c.defects))).toEqual(new Set([a, b]));
  });
});

describe('a correct implementation over stdio gets no diagnosis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-diagnose-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the defect model with no defect', async () => {
    expect(await diagnoseOver(model('full', []))).toEqual({ failing: 0, d: undefined });
  });

  it.skipIf(!hasPython)('the Python example', async () => {
    expect(await diagnoseOver(`python3 "${python}"`)).toEqual({ failing: 0, d: undefined });
  });

  it.skipIf(!hasPython)('the Python example with declared constants', async () => {
    writeFileSync(join(dir, 'tuned.json'), JSON.stringify(TUNED));
    expect(await diagnoseOver(`python3 "${python}" --constants "${join(dir, 'tuned.json')}"`)).toEqual({ failing: 0, d: undefined });
  });
});
