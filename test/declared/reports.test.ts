/**
 * SPEC DECL-5: a run with declared constants is never reported as plain
 * tiered conformance. Every format says "tiered with declared constants" and
 * lists them; a run whose declaration equals the specification's is plain.
 * `ctxconform run` refuses a declaration the schema cannot judge (DECL-1).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openModule } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { diffReports, formatDiff } from '../../cli/diff.js';
import { main } from '../../cli/main.js';
import { mergeReports } from '../../cli/merge.js';
import { runSuite } from '../../running/run.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Manifest, Report } from '../../protocol/types.js';
import { badgeData, renderBadge, renderHtml, renderJunit, renderMarkdown, verdictLine } from '../../report/index.js';
import { buildMatrix, matrixSummary } from '../../report/matrix.js';
import { renderMatrixHtml } from '../../report/matrix-html.js';
import { renderMatrixMarkdown } from '../../report/matrix-markdown.js';
import { TUNED } from '../fixtures/declared/constants.js';

const DIR = new URL('../fixtures/declared/', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-declared-reports-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cases = loadCorpus().cases.filter((c) => c.id.startsWith('tiers/') || c.id.startsWith('numbers/'));
const PHRASE = 'tiered with declared constants';
const LISTED = 'chars_per_token 3; tier_fractions 50/20/20/10 (working/episodic/longterm/knowledge); source_to_tier notes -&gt; knowledge';

let declared: Report;
let plain: Report;
let specDeclared: Report;

beforeAll(async () => {
  const impl = await openModule(join(DIR, 'tuned.ts'));
  const run = (manifest: Manifest, i = impl) => runSuite({ cases, impl: i, manifest, timeoutMs: 5000, concurrency: 1, properties: 5, seed: 1 });
  declared = await run(await impl.describe());
  const ref = { name: 'ctxconform-reference', version: '1.0.0', profiles: ['tiered'], capabilities: [] };
  plain = await run(ref, referenceImplementation(ref));
  // Declaring the specification's own values changes nothing: plain tiered.
  const same = { ...ref, constants: { chars_per_token: 4, source_to_tier: { memory: 'longterm' as const } } };
  specDeclared = await run(same, referenceImplementation(same));
});

describe('the run report', () => {
  it('records the constants in run.constants and the manifest, and validates', () => {
    expect(declared.run?.constants).toEqual(TUNED);
    expect(declared.implementation.constants).toEqual(TUNED);
    expect(plain.run?.constants).toBeUndefined();
    expect(specDeclared.run?.constants).toBeUndefined();
    const valid = validators.report();
    for (const r of [declared, plain, specDeclared]) expect(valid(r), formatErrors(valid.errors).join('\n')).toBe(true);
    expect(declared.summary.fail).toBe(0);
  });

  it('says tiered with declared constants in the verdict, Markdown, HTML, JUnit and badge; a plain run says nothing of them', () => {
    expect(verdictLine(declared)).toMatch(/^PASS \(tiered with declared constants\): /);
    const md = renderMarkdown(declared);
    expect(md).toContain(`profiles: ${PHRASE}`);
    expect(md).toContain('declared constants: chars\\_per\\_token 3');
    const html = renderHtml(declared);
    expect(html).toContain(`<dt>profiles</dt><dd>${PHRASE}</dd>`);
    expect(html).toContain(`<dt>declared constants</dt><dd>${LISTED}</dd>`);
    expect(html).toContain(`PASS (${PHRASE})`);
    const junit = renderJunit(declared);
    expect(junit).toContain(`<property name="profiles" value="${PHRASE}"/>`);
    expect(junit).toContain(`<property name="declared_constants" value="${LISTED}"/>`);
    expect(badgeData(declared)).toMatchObject({ label: `conformance (${PHRASE})`, message: '100%' });
    expect(renderBadge(declared)).toContain(`conformance (${PHRASE}): 100%`);
    for (const r of [plain, specDeclared]) {
      const all = [verdictLine(r), renderMarkdown(r), renderHtml(r), renderJunit(r), renderBadge(r)].join('\n');
      expect(all).not.toMatch(/declared constants/);
      expect(badgeData(r).label).toBe('conformance');
    }
  });

  it('the matrix labels the column and lists its constants in JSON, Markdown and HTML', () => {
    const m = buildMatrix([
      { source: 'plain.json', report: plain },
      { source: 'tuned.json', report: declared },
    ]);
    const summary = matrixSummary(m, '0.1.0');
    expect(summary.implementations.map((c) => c.label)).toEqual(['ctxconform-reference 1.0.0', `tuned 1.0.0, ${PHRASE}`]);
    expect(summary.implementations[1]!.constants).toEqual(TUNED);
    expect(summary.implementations[0]!.constants).toBeUndefined();
    const valid = validators.matrix();
    expect(valid(summary), formatErrors(valid.errors).join('\n')).toBe(true);
    expect(renderMatrixMarkdown(m)).toMatch(/\| declared constants \|\s*\| chars\\_per\\_token 3;/);
    expect(renderMatrixHtml(m)).toContain(`<tr><th>declared constants</th><td></td><td>${LISTED}</td></tr>`);
  });
});

describe('merge and diff', () => {
  it('shards judged with other constants are not one run; a diff names the constants of each side', () => {
    const shard = (r: Report, i: number): Report => ({
      ...r,
      implementation: declared.implementation,
      run: { ...r.run, shard: `${i}/2`, adapter: 'module', target: 'x', seed: 1, filter: null },
    });
    const withConstants = shard(declared, 1);
    const without = shard({ ...declared, run: { ...declared.run } }, 2);
    delete without.run!.constants;
    expect(() =>
      mergeReports([
        { file: 'a.json', report: withConstants },
        { file: 'b.json', report: without },
      ]),
    ).toThrow(/run\.constants .*: shards of one run share it/);
    const text = formatDiff(diffReports(plain, declared), plain, declared);
    expect(text).toMatch(/^old: ctxconform-reference 1\.0\.0 \(kit [^;)]*\): /m);
    expect(text).toMatch(/^new: tuned 1\.0\.0 \(kit [^;]*; tiered with declared constants: chars_per_token 3; /m);
  });
});

describe('ctxconform run with declared constants', () => {
  async function cli(...args: string[]): Promise<{ status: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
    try {
      return { status: await main(args), out: out.join('\n'), err: err.join('\n') };
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
  }

  it('prints the constants with the implementation and in the last line', async () => {
    const json = join(tmp, 'run.json');
    const r = await cli('run', '--module', join(DIR, 'tuned.ts'), '--filter', 'area:tiers', '--properties', '10', '--quiet', '--json', json);
    expect(r.status).toBe(0);
    expect(r.out).toContain(`profiles [${PHRASE}], capabilities []`);
    expect(r.out).toContain('declared constants: chars_per_token 3; tier_fractions 50/20/20/10');
    // The verdict word of every report (DECL-5), not a word of the terminal's own.
    expect(r.out).toMatch(/\nPASS \(tiered with declared constants\): \d+ pass, 0 fail/);
    expect((JSON.parse(readFileSync(json, 'utf8')) as Report).run?.constants).toEqual(TUNED);
  }, 60_000);

  it('refuses, exit 2, a manifest whose shares sum past 100, with an unknown constant, or with no tiered profile', async () => {
    const write = (name: string, m: unknown): string => {
      const f = join(tmp, name);
      writeFileSync(f, JSON.stringify(m));
      return f;
    };
    const base = { name: 'x', version: '1', profiles: ['tiered'], capabilities: [] };
    const over = write('over.json', { ...base, constants: { tier_fractions: { working: 50, episodic: 30, longterm: 20, knowledge: 10 } } });
    let r = await cli('run', '--module', join(DIR, 'tuned.ts'), '--manifest', over, '--properties', '0');
    expect(r.status).toBe(2);
    expect(r.err).toContain('/constants/tier_fractions: the tier shares sum to 110, more than 100');
    const unknown = write('unknown.json', { ...base, constants: { chars_per_tokens: 3 } });
    r = await cli('run', '--module', join(DIR, 'tuned.ts'), '--manifest', unknown, '--properties', '0');
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/\/constants: must NOT have additional properties "chars_per_tokens"/);
    const ranked = write('ranked.json', { ...base, profiles: ['ranked'], constants: { chars_per_token: 3 } });
    r = await cli('run', '--module', join(DIR, 'tuned.ts'), '--manifest', ranked, '--properties', '0');
    expect(r.status).toBe(2);
    expect(r.err).toContain('declared constants are those of profile tiered, which the manifest does not declare');
  }, 60_000);
});
