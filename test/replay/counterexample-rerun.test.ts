/**
 * Counterexamples that fail when rerun: a case saved by
 * `--save-counterexamples` declares exactly the capabilities its request uses
 * as SPEC section 8 words it (none for an invalid request: validation is
 * core, section 3), so `run --cases DIR` against the implementation that
 * produced it runs it, and it fails; against the reference it passes. Every
 * file written is checked, in process and over stdio.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fromFunctions } from '../../adapters/inprocess.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { capabilitiesUsed } from '../../judging/properties/counterexample.js';
import { replay } from '../../traffic/replay/run.js';
import { runSuite } from '../../running/run.js';
import { assemble as nullIsAbsent, describe as nullIsAbsentManifest } from '../fixtures/replay/null-is-absent.js';
import { cliWith, ROOT } from '../cli.js';
import { fixtureCommand } from '../fixture-command.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-rerun-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (name: string): string => join(tmp, name);
const MODULE = join(ROOT, 'test/fixtures/replay/null-is-absent.ts');
const overStdio = fixtureCommand(join(ROOT, 'test/fixtures/replay/module-stdio.ts'), MODULE);

const block = (id: string, extra: Record<string, unknown> = {}) => ({ block_id: id, source: 'memory', content: `content of ${id}`, priority: 1, ...extra });
/** Invalid requests (VAL-5: null is no value of these members) that the build answers, and a valid one that uses constraints. */
const RECORDED = [
  { now: 10, budget: 50, blocks: [block('a', { confidence: null }), block('b')] },
  { now: 10, budget: 50, blocks: [block('a', { pinned: null })], constraints: { must_include: ['a'] } },
  { now: 10, budget: 50, blocks: [block('a', { status: null, confidence: 0.5 })] },
  {
    now: 10,
    budget: 50,
    blocks: [block('a'), block('b', { pinned: false, status: 'active', confidence: 0.2 })],
    constraints: { prefer_high_confidence: true },
  },
];

describe('the capabilities a saved case declares', () => {
  it('are those its request uses (SPEC section 8): none for an invalid one, none for pinned: false, status: active or a confidence', () => {
    expect(RECORDED.map(capabilitiesUsed)).toEqual([[], [], [], ['constraints']]);
    expect(capabilitiesUsed({ now: 1, budget: 5, blocks: [block('a', { pinned: true, status: 'stale' })] })).toEqual(['lifecycle', 'pinned']);
    expect(capabilitiesUsed({ profile: 'ranked', now: 1, budget: 5, blocks: [block('a')] })).toEqual([]);
  });
});

/** Every saved file: its declared capabilities are the request's, and it is a valid case of the loaded corpus. */
function savedCases(dir: string): string[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  for (const f of files) {
    const doc = YAML.parse(readFileSync(join(dir, f), 'utf8')) as { capabilities: string[]; request: unknown };
    expect(doc.capabilities, f).toEqual(capabilitiesUsed(doc.request));
  }
  const corpus = loadCorpus(dir);
  expect(corpus.problems).toEqual([]);
  expect(corpus.cases).toHaveLength(files.length);
  return files;
}

describe('replay --save-counterexamples, then run --cases DIR', () => {
  const file = at('recorded.jsonl');
  writeFileSync(file, RECORDED.map((r) => JSON.stringify(r)).join('\n') + '\n');

  it('in process: every saved case fails on the build that produced it, and passes the reference', async () => {
    const dir = at('saved-in-process');
    const impl = fromFunctions(nullIsAbsent, nullIsAbsentManifest);
    const manifest = nullIsAbsentManifest();
    const replayed = await replay({
      sources: [{ path: file, label: 'recorded.jsonl' }],
      impl,
      manifest,
      timeoutMs: 10_000,
      concurrency: 1,
      twice: true,
      shrink: 10,
      maxListed: 100,
      saveCounterexamples: dir,
    });
    expect(replayed.cases.map((c) => c.status)).toEqual(['fail', 'fail', 'fail', 'pass']);
    const files = savedCases(dir);
    expect(files).toHaveLength(3);
    const cases = loadCorpus(dir).cases;
    const again = await runSuite({ cases, impl, manifest, timeoutMs: 10_000, concurrency: 1, properties: 0, seed: 1 });
    expect(again.cases.map((c) => `${c.id}: ${c.status}`)).toEqual(cases.map((c) => `${c.id}: fail`));
    const reference = referenceImplementation();
    const passes = await runSuite({ cases, impl: reference, manifest: await reference.describe(), timeoutMs: 10_000, concurrency: 1, properties: 0, seed: 1 });
    expect(new Set(passes.cases.map((c) => c.status))).toEqual(new Set(['pass']));
  });

  it("over stdio, from the command line, with the properties' counterexamples too", () => {
    const dir = at('saved-stdio');
    const r = cliWith({}, 'replay', file, '--stdio', overStdio, '--save-counterexamples', dir, '--quiet');
    expect(r.status, r.stdout).toBe(1);
    expect(r.stdout.match(/saved as /g)).toHaveLength(3);
    const props = cliWith({}, 'run', '--stdio', overStdio, '--cases', 'none', '--save-counterexamples', dir, '--quiet');
    expect(props.status).toBe(1);
    const files = savedCases(dir);
    expect(files.length).toBeGreaterThanOrEqual(3);
    const again = cliWith({}, 'run', '--cases', dir, '--properties', '0', '--stdio', overStdio);
    expect(again.status, again.stdout).toBe(1);
    expect(again.stdout).toMatch(new RegExp(`^FAIL: 0 pass, ${files.length} fail, 0 error, 0 timeout, 0 crash, 0 skip of ${files.length} `, 'm'));
    const reference = cliWith({}, 'run', '--cases', dir, '--properties', '0');
    expect(reference.status, reference.stdout).toBe(0);
  });
});
