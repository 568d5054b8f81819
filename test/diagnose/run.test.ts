/**
 * The diagnosis's acceptance test through the commands, in process: an implementation
 * with one known defect gets it as the likely cause of `ctxconform run`
 * (golden cases and the properties' counterexamples), `replay` and `sweep`,
 * in the terminal right after the failures and before the summary, and as
 * the JSON report's `diagnosis`, which the schema, the Markdown and the HTML
 * reports carry; a correct implementation (the reference, the Python
 * example) gets neither. The whole catalogue is held to this at the
 * diagnose() level (catalogue.test.ts); these are a few defects end to end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { encodeRequest } from '../../adapters/wire.js';
import { main } from '../../cli/main.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { CATALOGUE } from '../../diagnosis/index.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import { FAILING } from '../../protocol/types.js';
import type { Report } from '../../protocol/types.js';

const BROKEN = fileURLToPath(new URL('../fixtures/broken/', import.meta.url));
const python = fileURLToPath(new URL('../../adapters/examples/python/impl.py', import.meta.url));
const hasPython = spawnSync('python3', ['--version']).status === 0;
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-diagnose-run-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Ran {
  status: number;
  out: string;
  report: Report;
  dir: string;
}

/** A command in process, its terminal output and its JSON, Markdown and HTML reports. */
async function command(...args: string[]): Promise<Ran> {
  const dir = mkdtempSync(join(tmp, 'run-'));
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const status = await main([...args, '--quiet', '--json', join(dir, 'r.json'), '--markdown', join(dir, 'r.md'), '--html', join(dir, 'r.html')]);
    return { status, out: lines.join('\n'), report: JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Report, dir };
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
}

const failingIds = (r: Report): string[] => r.cases.filter((c) => FAILING.has(c.status)).map((c) => c.id);

function expectValidReport(r: Report): void {
  const valid = validators.report();
  expect(valid(r), formatErrors(valid.errors).join('; ')).toBe(true);
}

/** The defect is the one cause: every failure explained, none contradicted; the block stands after the last failure and before the summary. */
function expectSoleCause(ran: Ran, id: string): void {
  const entry = CATALOGUE.find((e) => e.id === id)!;
  const failing = failingIds(ran.report);
  expect(ran.status).toBe(1);
  expect(failing.length).toBeGreaterThan(0);
  expect(ran.report.diagnosis?.map((c) => [c.id, c.explains, c.failing, c.contradicts])).toEqual([[id, failing.length, failing.length, 0]]);
  expect(ran.report.diagnosis![0]).toMatchObject({ requirements: [...entry.requirements], summary: entry.summary, explained: failing });
  expectValidReport(ran.report);

  const line = `  ${id} [${entry.requirements.join(', ')}]: ${entry.summary} — explains ${failing.length} of ${failing.length} failure${failing.length === 1 ? '' : 's'}, contradicts none`;
  expect(ran.out).toContain(`\nlikely cause (known defects whose model answers exactly as the implementation did; docs/diagnosis.md):\n${line}\n`);
  const at = ran.out.indexOf('likely cause');
  expect(ran.out.lastIndexOf('\nFAIL ')).toBeLessThan(at);
  expect(ran.out.indexOf('\narea ')).toBeGreaterThan(at);
  expect(ran.out).not.toContain('not explained by these');

  // Markdown and HTML show it at the top, before the counts.
  const md = readFileSync(join(ran.dir, 'r.md'), 'utf8');
  expect(md.indexOf('### Likely cause')).toBeGreaterThan(0);
  expect(md.indexOf('### Likely cause')).toBeLessThan(md.indexOf('| status | cases |'));
  expect(md).toContain(`| \`${id}\` |`);
  const html = readFileSync(join(ran.dir, 'r.html'), 'utf8');
  expect(html.indexOf('<h2 id="diagnosis">Likely cause</h2>')).toBeGreaterThan(0);
  expect(html.indexOf('<h2 id="diagnosis">')).toBeLessThan(html.indexOf('<h2 id="counts">'));
  expect(html).toContain(`<code>${id}</code>`);
}

function expectNoDiagnosis(ran: Ran): void {
  expect(ran.status).toBe(0);
  expect(ran.report).not.toHaveProperty('diagnosis');
  expect(ran.out).not.toContain('likely cause');
  expect(readFileSync(join(ran.dir, 'r.md'), 'utf8')).not.toContain('Likely cause');
  expect(readFileSync(join(ran.dir, 'r.html'), 'utf8')).not.toContain('id="diagnosis"');
}

describe('ctxconform run: one defect is the likely cause, over the golden cases and the properties', () => {
  // Each a tiered core implementation written apart from the defect model (test/fixtures/broken/mutant.ts).
  it.each([
    ['remainder-in-pool', 'remainder-in-pool'],
    ['inclusive-expiry', 'inclusive-expiry'],
    ['utf16-lengths', 'utf16-lengths'],
    ['urgent-priority', 'content-changes-priority'],
  ])('%s', async (fixture, id) => {
    const ran = await command('run', '--module', join(BROKEN, `${fixture}.ts`), '--properties', '30');
    expectSoleCause(ran, id);
    // The properties' shrunk counterexamples are diagnosed too.
    expect(ran.report.diagnosis![0]!.explained).toContain('property/differential');
  });

  it('a property of two requests is diagnosed by the one answered wrongly: content-blindness by its twin', async () => {
    // UTF-16 lengths: the twin's astral fillers cost what the original's letters did not.
    const ran = await command('run', '--module', join(BROKEN, 'utf16-lengths.ts'), '--properties', '30', '--filter', 'property/content-blindness');
    expect(failingIds(ran.report)).toEqual(['property/content-blindness']);
    expect(ran.report.diagnosis?.map((c) => [c.id, c.explained])).toEqual([['utf16-lengths', ['property/content-blindness']]]);
  });
});

describe('a correct implementation gets no diagnosis', () => {
  it('the reference', async () => {
    expectNoDiagnosis(await command('run', '--impl', 'reference', '--properties', '30'));
  });

  it.skipIf(!hasPython)('the Python example, over stdio', async () => {
    expectNoDiagnosis(await command('run', '--stdio', `python3 "${python}"`, '--properties', '30'));
  });
});

describe('replay and sweep: their judged requests are diagnosed', () => {
  it('ctxconform replay of the corpus requests names the defect', async () => {
    const file = join(tmp, 'corpus.jsonl');
    const requests = loadCorpus()
      .cases.filter((c) => c.profile === 'tiered' && c.capabilities.length === 0 && encodeRequest(c.request).ok)
      .map((c) => JSON.stringify(c.request));
    writeFileSync(file, requests.join('\n') + '\n');
    const ran = await command('replay', file, '--module', join(BROKEN, 'remainder-in-pool.ts'), '--shrink', '0');
    expectSoleCause(ran, 'remainder-in-pool');
  });

  it('ctxconform sweep names the defect: every budget is one judged request', async () => {
    const ran = await command('sweep', '--case', 'tiers/budgets-at-10', '--module', join(BROKEN, 'remainder-in-pool.ts'), '--no-shrink');
    const [top] = ran.report.diagnosis!;
    expect(ran.report.diagnosis).toHaveLength(1);
    expect(top).toMatchObject({ id: 'remainder-in-pool', contradicts: 0 });
    expect(top!.explains).toBe(top!.failing);
    expect(top!.explained!.every((id) => /^sweep\/tiers\/budgets-at-10@\d+$/.test(id))).toBe(true);
    expect(ran.out).toMatch(/\nlikely cause \(.*\):\n {2}remainder-in-pool \[TIER-6\]: .* — explains \d+ of \d+ failures, contradicts none\n/);
    expectValidReport(ran.report);
    // The sweep's one result counts as explained: its budgets are.
    expect(readFileSync(join(ran.dir, 'r.md'), 'utf8')).not.toContain('Not explained by these');
  });

  it('says which defects one block set cannot tell apart', async () => {
    // One block in one tier: the remainder in the pool and a 40/20/20/20 split admit it at the same budgets.
    const ran = await command('sweep', '--case', 'starvation/remainder-not-pooled', '--module', join(BROKEN, 'remainder-in-pool.ts'), '--no-shrink');
    const [top] = ran.report.diagnosis!;
    expect([top!.id, ...(top!.alike ?? [])]).toContain('remainder-in-pool');
    expect(ran.out).toMatch(new RegExp(`\n {6}this run cannot tell it from: ${top!.alike!.join(', ')}\n`));
  });
});
