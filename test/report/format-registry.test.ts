/**
 * A new report format is 2 files with no edit elsewhere: its writer and its
 * registry entry. A made-up one (test/report/fake-format/: tap-writer.ts and
 * entries/tap.ts, nothing else) is registered by the loader that registers
 * the built-in entries of report/formats/, from its folder alone, and every
 * command that writes reports then takes its option, lists it in its help,
 * and writes it: run, contract, replay, sweep and merge, by its own option
 * and under --reports-dir (which the GitHub Action passes, naming no format).
 * The built-in formats are the files of their folder, and no command names
 * one.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { run as contractCommand } from '../../cli/contract.js';
import { run as mergeCommand } from '../../cli/merge.js';
import { run as replayCommand } from '../../cli/replay.js';
import { run as runCommand } from '../../cli/run.js';
import { run as sweepCommand } from '../../cli/sweep.js';
import { formats, loadFormats, registerFormatsIn, unregisterFormat } from '../../report/registry.js';
import { startMemoryService, type FakeService } from '../fixtures/memory-service/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FAKE = join(root, 'test/report/fake-format');
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-format-'));

beforeAll(async () => {
  await loadFormats();
  await registerFormatsIn(join(FAKE, 'entries'));
});
afterAll(() => {
  unregisterFormat('tap');
  rmSync(tmp, { recursive: true, force: true });
});

let out: string[] = [];
beforeEach(() => {
  out = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
});
afterEach(() => vi.restoreAllMocks());

/** The TAP file's result lines, without the plan. */
const tapLines = (file: string): string[] => {
  const [plan, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  expect(plan).toBe(`1..${lines.length}`);
  return lines;
};

const RECORDED = join(tmp, 'recorded.jsonl');
writeFileSync(RECORDED, `${JSON.stringify({ now: 0, budget: 50, blocks: [{ block_id: 'a', source: 'memory', content: 'hello', priority: 1 }] })}\n`);

describe('a report format added as its writer and its entry', () => {
  it('is those 2 files, registered from the folder of its entry', () => {
    expect(readdirSync(FAKE, { recursive: true }).sort()).toEqual(['entries', 'entries/tap.ts', 'tap-writer.ts']);
    expect(formats().map((f) => f.name)).toEqual(['json', 'junit', 'markdown', 'html', 'badge', 'tap']);
  });

  it('is in the help of every command that writes reports', async () => {
    for (const command of [runCommand, contractCommand, replayCommand, sweepCommand, mergeCommand]) {
      out = [];
      expect(await command(['--help'])).toBe(0);
      expect(out.join('\n')).toMatch(/^ {2}--tap FILE {14}TAP lines, a format this test makes up$/m);
    }
  });

  it('run writes it, by its option and under --reports-dir', async () => {
    const tap = join(tmp, 'run.tap');
    expect(await runCommand(['--filter', 'area:validation', '--properties', '0', '--quiet', '--tap', tap])).toBe(0);
    const lines = tapLines(tap);
    expect(lines.length).toBeGreaterThan(50);
    expect(lines[0]).toMatch(/^ok 1 - validation\/\S+ \(case, (validation|profile)\)$/);
    expect(lines.some((l) => l.endsWith('(case, validation)'))).toBe(true);
    const dir = join(tmp, 'all');
    expect(await runCommand(['--filter', 'area:expiry', '--properties', '0', '--quiet', '--reports-dir', dir])).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['badge.json', 'badge.svg', 'ctxconform.json', 'junit.xml', 'report.html', 'results.tap', 'summary.md']);
    expect(out.join('\n')).toContain(`wrote ${join(dir, 'results.tap')}`);
  });

  it('replay and sweep write it', async () => {
    const replayed = join(tmp, 'replay.tap');
    expect(await replayCommand([RECORDED, '--quiet', '--tap', replayed])).toBe(0);
    expect(tapLines(replayed)).toEqual(['ok 1 - replay/recorded.jsonl:1 (replay, profile)'.replace('recorded.jsonl', RECORDED)]);
    const swept = join(tmp, 'sweep.tap');
    expect(await sweepCommand(['--request', RECORDED, '--budgets', '0..20', '--quiet', '--tap', swept])).toBe(0);
    expect(tapLines(swept)).toEqual([`ok 1 - sweep/${RECORDED}:1 (sweep, profile)`]);
  });

  it('contract writes it', async () => {
    let service: FakeService | undefined;
    try {
      service = await startMemoryService({});
      const tap = join(tmp, 'contract.tap');
      expect(await contractCommand(['--memory-api', service.url, '--properties', '2', '--quiet', '--tap', tap]), out.join('\n')).toBe(0);
      const lines = tapLines(tap);
      expect(lines.length).toBeGreaterThan(5);
      expect(lines.every((l) => /^ok \d+ - contract\/\S+ \(contract, contract\)( # SKIP)?$/.test(l))).toBe(true);
    } finally {
      await service?.close();
    }
  });

  it('merge writes it from the shards, by its option and under --reports-dir', async () => {
    const shard = (i: number): string => join(tmp, `shard-${i}.json`);
    for (const i of [1, 2])
      expect(await runCommand(['--filter', 'area:expiry', '--properties', '0', '--shard', `${i}/2`, '--quiet', '--json', shard(i)])).toBe(0);
    const tap = join(tmp, 'merged.tap');
    expect(await mergeCommand([shard(1), shard(2), '-o', join(tmp, 'merged.json'), '--tap', tap])).toBe(0);
    const ids = (r: string): string[] => (JSON.parse(readFileSync(r, 'utf8')) as { cases: { id: string }[] }).cases.map((c) => c.id);
    expect(tapLines(tap).map((l) => l.replace(/^ok \d+ - (\S+) .*$/, '$1'))).toEqual(ids(join(tmp, 'merged.json')));
    const dir = join(tmp, 'merged');
    expect(await mergeCommand([shard(1), shard(2), '--reports-dir', dir])).toBe(0);
    expect(existsSync(join(dir, 'results.tap'))).toBe(true);
    expect(ids(join(dir, 'ctxconform.json'))).toEqual(ids(join(tmp, 'merged.json')));
  });

  it('the GitHub Action takes it: the run step passes --reports-dir and names no format', () => {
    const action = readFileSync(join(root, 'action.yml'), 'utf8');
    expect(action).toContain('args=(run --reports-dir "$dir")');
    for (const f of formats()) expect(action, f.name).not.toContain(`--${f.name} `);
  });
});

describe('the built-in formats', () => {
  it('are the files of report/formats/, and no command or engine module names one (matrix writes its own document, not a report)', () => {
    const entries = readdirSync(join(root, 'report/formats')).map((f) => f.replace(/\.ts$/, ''));
    expect(entries.sort()).toEqual(['badge', 'html', 'json', 'junit', 'markdown']);
    for (const dir of ['cli', 'vocabulary', 'contract', 'judging', 'diagnosis', 'running', 'traffic']) {
      for (const file of readdirSync(join(root, dir), { recursive: true }) as string[]) {
        if (!file.endsWith('.ts') || file === 'matrix.ts') continue;
        const text = readFileSync(join(root, dir, file), 'utf8');
        for (const name of ['junit', 'markdown', 'badge']) expect(text, `${dir}/${file}`).not.toMatch(new RegExp(`['"\`]--${name}\\b|\\b${name}: \\{ type`));
      }
    }
  });
});
