/**
 * A new transport is 2 files with no edit elsewhere: its adapter and its
 * registry entry. A made-up one (test/runner/fake-transport/: fake-adapter.ts and
 * entries/fake.ts, nothing else) is registered by the loader that registers
 * the built-in entries of running/transports/, from its folder alone, and
 * is then driven through every command that drives an assembler (run,
 * replay, sweep, constants) and the code API; it appears in their help, in
 * rerun commands and in the reports (which the report schema accepts), and
 * its own option is refused without it. No transport is named outside its
 * entry: the built-in ones are the files of their folder, and neither the
 * engine nor the command line spells their names or options.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { run as runCommand } from '../../cli/run.js';
import { run as replayCommand } from '../../cli/replay.js';
import { run as sweepCommand } from '../../cli/sweep.js';
import { run as constantsCommand } from '../../cli/constants.js';
import { run as contractCommand } from '../../cli/contract.js';
import { UsageError } from '../../cli/usage.js';
import { openImplementation } from '../../running/open.js';
import { loadTransports, registerTransportsIn, transports, unregisterTransport } from '../../running/transports.js';
import { validators } from '../../protocol/schemas.js';
import type { Report } from '../../protocol/types.js';
import { fakeLog } from './fake-transport/fake-adapter.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FAKE = join(root, 'test/runner/fake-transport');
const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-transport-'));

beforeAll(async () => {
  await loadTransports();
  await registerTransportsIn(join(FAKE, 'entries'));
});
afterAll(() => {
  unregisterTransport('fake');
  rmSync(tmp, { recursive: true, force: true });
});

let out: string[] = [];
beforeEach(() => {
  out = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  return () => vi.restoreAllMocks();
});

const readReport = (file: string): Report => {
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  const valid = validators.report();
  expect(valid(report), JSON.stringify(valid.errors)).toBe(true);
  return report;
};

const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));

describe('a transport added as its adapter and its entry', () => {
  it('is those 2 files, registered from the folder of its entry', () => {
    expect(
      files(FAKE)
        .map((f) => relative(FAKE, f))
        .sort(),
    ).toEqual(['entries/fake.ts', 'fake-adapter.ts']);
    expect(transports().map((t) => t.name)).toContain('fake');
  });

  it('is in the help of every command that drives an assembler, with its own option', async () => {
    for (const command of [runCommand, replayCommand, sweepCommand, constantsCommand]) {
      out = [];
      expect(await command(['--help'])).toBe(0);
      const help = out.join('\n');
      expect(help).toMatch(/^ {2}--fake NAME {13}an implementation this test makes up$/m);
      expect(help).toMatch(/^ {4}--fake-flavour HABIT {2}a wrong habit to answer with$/m);
    }
  });

  it('run: judged, reported under its name, closed, and its failures rerun through it', async () => {
    const good = join(tmp, 'good.json');
    expect(await runCommand(['--fake', 'one', '--filter', 'area:expiry', '--properties', '2', '--quiet', '--json', good])).toBe(0);
    expect(readReport(good).run).toMatchObject({ adapter: 'fake', target: 'fake:one' });
    expect(out.join('\n')).toMatch(/^fake-one 1\.0\.0 via fake \(fake:one\)/m);
    const bad = join(tmp, 'bad.json');
    const before = fakeLog.closed;
    expect(
      await runCommand(['--fake', 'two', '--fake-flavour', 'trailing-newline', '--filter', 'area:rendering', '--properties', '0', '--quiet', '--json', bad]),
    ).toBe(1);
    expect(fakeLog.closed).toBe(before + 1);
    const failing = readReport(bad).cases.filter((c) => c.status === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing[0]!.rerun).toMatch(/^npx ctxconform run --fake two --fake-flavour trailing-newline --filter \S+ --properties 0$/);
  });

  it('replay and sweep drive it, and say so in their reports', async () => {
    const recorded = join(tmp, 'recorded.jsonl');
    writeFileSync(recorded, `${JSON.stringify({ now: 0, budget: 50, blocks: [{ block_id: 'a', source: 'memory', content: 'hello', priority: 1 }] })}\n`);
    const replayed = join(tmp, 'replay.json');
    expect(await replayCommand([recorded, '--fake', 'three', '--quiet', '--json', replayed])).toBe(0);
    expect(readReport(replayed).run).toMatchObject({ adapter: 'fake', target: 'fake:three' });
    const swept = join(tmp, 'sweep.json');
    expect(
      await sweepCommand(['--request', recorded, '--fake', 'four', '--fake-flavour', 'trailing-newline', '--budgets', '0..20', '--no-shrink', '--json', swept]),
    ).toBe(1);
    expect(readReport(swept).run).toMatchObject({ adapter: 'fake', target: 'fake:four' });
  });

  it('constants probes it', async () => {
    expect(await constantsCommand(['--fake', 'five'])).toBe(0);
    expect(out.join('\n')).toMatch(/^constants of fake-five 1\.0\.0/m);
    expect(fakeLog.opened).toContain('five');
  });

  it('the code API opens it by name with its typed config', async () => {
    const opened = await openImplementation({ transport: 'fake', config: { name: 'six', flavour: 'trailing-newline' } });
    try {
      expect(opened).toMatchObject({ adapter: 'fake', target: 'fake:six', concurrency: 2, timeoutMs: 5000 });
      expect(opened.manifest.name).toBe('fake-six');
    } finally {
      await opened.impl.close();
    }
  });

  it('its own option without it, two transports at once, or a config its entry refuses: a usage error naming the option', async () => {
    await expect(runCommand(['--fake-flavour', 'x', '--properties', '0'])).rejects.toThrow(/--fake-flavour goes with --fake/);
    await expect(runCommand(['--fake', 'x', '--module', 'm.mjs'])).rejects.toThrow(UsageError);
    await expect(runCommand(['--fake', 'x', '--module', 'm.mjs'])).rejects.toThrow(/choose one implementation, not --module and --fake/);
    await expect(runCommand(['--fake', 'nobody'])).rejects.toThrow(/^--fake names nobody$/);
    await expect(openImplementation({ transport: 'fake', config: { name: 'nobody' } })).rejects.toThrow(/^name names nobody$/);
    // The contract command judges services: an assembler is run's.
    await expect(contractCommand(['--fake', 'x'])).rejects.toThrow(/^--fake is an assembler: ctxconform run drives it, this command does not$/);
  });
});

describe('the built-in transports', () => {
  const ENTRIES = join(root, 'running/transports');

  it('are the entry modules of running/transports/, each registered under its file name: no list names them', async () => {
    const entries = readdirSync(ENTRIES).filter((f) => f.endsWith('.ts'));
    const builtIn = transports()
      .map((t) => t.name)
      .filter((n) => n !== 'fake');
    expect(builtIn.sort()).toEqual(entries.map((f) => f.replace(/\.ts$/, '')).sort());
    for (const f of entries) expect((await import(join(ENTRIES, f))).default.name).toBe(f.replace(/\.ts$/, ''));
  });

  it('are named, with their options and config members, in their entry alone: the engine and the command line spell none of them', () => {
    // `reference` is left out: the word names the oracle every judging command compares with, not only the transport.
    const words = transports()
      .filter((t) => t.name !== 'fake')
      .flatMap((t) => [
        ...(t.name === 'reference' ? [] : [t.name]),
        t.option,
        ...(t.key ? [t.key] : []),
        ...Object.entries(t.options ?? {}).flatMap(([name, o]) => [name, o.key]),
      ]);
    expect(words).toEqual(expect.arrayContaining(['stdio', 'http', 'memory-api', 'module', 'impl', 'processes', 'api-key', 'command', 'url']));
    const sources = ['vocabulary', 'contract', 'judging', 'diagnosis', 'running', 'traffic', 'cli']
      .flatMap((d) => files(join(root, d)))
      .filter((f) => f.endsWith('.ts') && !f.startsWith(ENTRIES));
    const found = sources.flatMap((f) => {
      // Code only: a comment may show an example.
      const text = readFileSync(f, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      return words.filter((w) => text.includes(`'${w}'`) || text.includes(`"${w}"`)).map((w) => `${relative(root, f)}: '${w}'`);
    });
    expect(found).toEqual([]);
  });
});
