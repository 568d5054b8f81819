/**
 * Spec versions: `since` on a case, `--spec vN` running the cases that hold in
 * vN, and the version shown in every report.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceImplementation } from '../../adapters/reference.js';
import { runSuite } from '../../running/run.js';
import { holdsIn, specNumber, specVersionProblem } from '../../vocabulary/spec.js';
import type { GoldenCase } from '../../vocabulary/types.js';
import type { Report } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { renderHtml } from '../../report/html.js';
import { renderJunit } from '../../report/junit.js';
import { renderMarkdown } from '../../report/markdown.js';
import { cli } from '../cli.js';
import { FAULT_CASES } from '../fixtures/faulty/cases.js';

describe('spec versions', () => {
  it('reads vN, orders by N, and refuses what this kit does not know', () => {
    expect([specNumber('v1'), specNumber('v12'), specNumber('1'), specNumber('v0'), specNumber('v1.1')]).toEqual([1, 12, undefined, undefined, undefined]);
    expect(holdsIn('v1', 'v1')).toBe(true);
    expect(holdsIn('v1', 'v3')).toBe(true);
    expect(holdsIn('v2', 'v1')).toBe(false);
    expect(holdsIn('v10', 'v9')).toBe(false);
    expect(specVersionProblem('v1')).toBeUndefined();
    expect(specVersionProblem('v2')).toBe("v2 is later than this kit's SPEC.md (v1)");
    expect(specVersionProblem('1')).toBe('"1" is not a spec version (v1, v2, ...)');
  });

  it('--spec runs exactly the cases that hold in that version and records it', async () => {
    // A later spec's case can only be made by hand (the loader refuses one), as a kit of that spec would load it.
    const cases: GoldenCase[] = [...FAULT_CASES.slice(0, 3), { ...FAULT_CASES[3]!, id: 'fault/z-later', since: 'v2' }];
    const impl = referenceImplementation();
    const manifest = await impl.describe();
    const run = (spec?: string) => runSuite({ cases, impl, manifest, timeoutMs: 2000, concurrency: 1, properties: 0, seed: 1, ...(spec ? { spec } : {}) });
    const v1 = await run('v1');
    expect(v1.cases.map((c) => c.id)).toEqual(FAULT_CASES.slice(0, 3).map((c) => c.id));
    expect(v1.run?.spec).toBe('v1');
    expect(resultsOf(v1.cases, 'case').every((c) => c.since === 'v1')).toBe(true);
    const v2 = await run('v2');
    expect(v2.cases.map((c) => c.id)).toContain('fault/z-later');
    expect(resultsOf(v2.cases, 'case').find((c) => c.id === 'fault/z-later')!.since).toBe('v2');
    const all = await run();
    expect(all.cases).toHaveLength(4);
    expect(all.run?.spec).toBeUndefined();
  });

  it('the report writers say which spec version the cases were of', async () => {
    const impl = referenceImplementation();
    const r: Report = await runSuite({
      cases: FAULT_CASES,
      impl,
      manifest: await impl.describe(),
      timeoutMs: 2000,
      concurrency: 1,
      properties: 0,
      seed: 1,
      spec: 'v1',
    });
    expect(renderMarkdown(r)).toContain('cases of spec v1');
    expect(renderHtml(r)).toContain('<dt>cases of spec</dt><dd>v1</dd>');
    // A failing case's section says since which version it holds.
    const failing = { ...r, cases: r.cases.map((c, i) => (i === 0 ? { ...c, status: 'fail' as const, message: 'wrong' } : c)) };
    expect(renderHtml(failing)).toContain('<code>REN-2</code> (the case holds since spec v1)</p>');
    expect(renderJunit(r)).toContain('<property name="spec_cases" value="v1"/>');
  });

  it('run --spec: v1 runs the whole corpus; a later or malformed version is a usage error', () => {
    const json = join(mkdtempSync(join(tmpdir(), 'ctxc-spec-')), 'r.json');
    const ok = cli('run', '--spec', 'v1', '--properties', '0', '--json', json, '--quiet');
    expect(ok.status).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.run?.spec).toBe('v1');
    expect(report.cases.length).toBe(Number(/(\d+) case/.exec(cli('validate').stdout)![1]));
    const later = cli('run', '--spec', 'v2', '--properties', '0');
    expect(later.status).toBe(2);
    expect(later.stderr).toContain("--spec: v2 is later than this kit's SPEC.md (v1)");
    expect(cli('list', '--spec', 'one').status).toBe(2);
  });
});
