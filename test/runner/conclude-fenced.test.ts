/**
 * A run always writes its reports (issue: a crash in the likely cause lost the
 * run): working out the likely cause is a reading of the results, so when it
 * throws, on an answer it cannot read or a bug of its own, the run says so in
 * one line, the verdict of the results stands, and every report is written.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { ObservationLog } from '../../diagnosis/index.js';
import { conclude } from '../../running/conclude.js';
import { runSuite } from '../../running/run.js';
import type { Manifest } from '../../protocol/types.js';

const dir = mkdtempSync(join(tmpdir(), 'ctxconform-fenced-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const manifest: Manifest = { name: 'drops-all', version: '1', profiles: ['any'], capabilities: [], validates: false };
// Every block left out for the budget, however much room: ANY-14 wherever everything fits.
const dropsAll = (request: unknown) => {
  const r = request as { budget: number; blocks: { block_id: string }[] };
  return {
    context: '',
    included: [],
    estimated_tokens: 0,
    total_budget: r.budget,
    omissions: r.blocks.map((b) => ({ block_id: b.block_id, reason: 'budget' })),
  };
};

describe('the likely cause is fenced', () => {
  it('a reading that throws is one line of every report, and every report is still written with the verdict', async () => {
    const cases = loadCorpus().cases.filter((c) => c.id.startsWith('any/'));
    const observations = new ObservationLog();
    const report = await runSuite({
      cases,
      impl: fromFunctions(dropsAll, undefined, manifest),
      manifest,
      timeoutMs: 5000,
      concurrency: 2,
      properties: 0,
      seed: 1,
      observations,
    });
    expect(report.summary.fail).toBeGreaterThan(0);
    // An observation whose request throws when read: what a reading of an answer it cannot hold (a stack overflow, a bug) does.
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new RangeError('Maximum call stack size exceeded');
        },
      },
    );
    observations.add({ id: 'any/hostile', request: hostile, manifest, outcome: { kind: 'result', value: hostile }, passed: false });
    const targets = {
      json: join(dir, 'r.json'),
      junit: join(dir, 'junit.xml'),
      markdown: join(dir, 'summary.md'),
      html: join(dir, 'report.html'),
      badge: join(dir, 'badge.svg'),
    };
    const done = await conclude(report, { observations, adapter: 'module', targets });
    // Said with where in the kit it was thrown, for a bug report.
    expect(done.cause).toMatch(/^working out the likely cause failed: RangeError: Maximum call stack size exceeded \(at diagnosis\/[\w/-]+\.[jt]s:\d+\)$/);
    expect(done.written.failed ?? []).toEqual([]);
    const json = JSON.parse(readFileSync(targets.json, 'utf8'));
    expect(json.run.likely_cause_failed).toBe(done.cause);
    expect(json.summary.fail).toBe(report.summary.fail);
    expect(readFileSync(targets.markdown, 'utf8')).toContain(done.cause);
    expect(readFileSync(targets.html, 'utf8')).toContain('working out the likely cause failed: RangeError');
    expect(readFileSync(targets.junit, 'utf8')).toContain('<testsuite');
    expect(readFileSync(targets.badge, 'utf8')).toContain('<svg');
  });
});
