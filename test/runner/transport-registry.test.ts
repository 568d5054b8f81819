/**
 * A new transport is its adapter plus one registry entry: a fake transport,
 * registered here and nowhere else, is driven through every command that
 * drives an implementation (run, replay, sweep, constants), appears in their
 * help, in rerun commands and in the reports (which the report schema
 * accepts), and its own option is refused without it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { run as runCommand } from '../../cli/run.js';
import { run as replayCommand } from '../../cli/replay.js';
import { run as sweepCommand } from '../../cli/sweep.js';
import { run as constantsCommand } from '../../cli/constants.js';
import { registerTransport, transportHelp, unregisterTransport } from '../../conformance/runner/transports.js';
import { UsageError } from '../../conformance/usage.js';
import { validators } from '../../protocol/schemas.js';
import type { Report } from '../../protocol/types.js';
import { assemble, describe as referenceDescribe } from '../../reference/index.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-transport-'));
const opened: string[] = [];
let closed = 0;

/** Answers as the reference does, or with one wrong habit (`--fake-flavour trailing-newline`). */
beforeAll(() => {
  registerTransport({
    name: 'fake',
    option: 'fake',
    metavar: 'NAME',
    help: 'an implementation this test makes up',
    kind: 'assembler',
    concurrency: 2,
    takesManifest: true,
    options: { 'fake-flavour': { type: 'string', metavar: 'HABIT', help: 'a wrong habit to answer with' } },
    async open({ value, values }) {
      opened.push(value);
      const wrong = values['fake-flavour'] === 'trailing-newline';
      const manifest = { ...referenceDescribe(), name: `fake-${value}`, capabilities: [] };
      const impl = fromFunctions(
        (r) => {
          const a = assemble(r, { capabilities: [] }) as { context?: string };
          return wrong && typeof a.context === 'string' ? { ...a, context: `${a.context}\n` } : a;
        },
        undefined,
        manifest,
      );
      const close = impl.close.bind(impl);
      impl.close = async () => {
        closed++;
        await close();
      };
      return { impl, manifest, target: `fake:${value}` };
    },
  });
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

describe('a transport added with one registry entry', () => {
  it('is in the help of every command that drives an assembler, with its own option', () => {
    expect(transportHelp()).toMatch(/^ {2}--fake NAME {13}an implementation this test makes up$/m);
    expect(transportHelp()).toMatch(/^ {4}--fake-flavour HABIT {2}a wrong habit to answer with$/m);
  });

  it('run: judged, reported under its name, closed, and its failures rerun through it', async () => {
    const good = join(tmp, 'good.json');
    expect(await runCommand(['--fake', 'one', '--filter', 'area:expiry', '--properties', '2', '--quiet', '--json', good])).toBe(0);
    expect(readReport(good).run).toMatchObject({ adapter: 'fake', target: 'fake:one' });
    expect(out.join('\n')).toMatch(/^fake-one 1\.0\.0 via fake \(fake:one\)/m);
    const bad = join(tmp, 'bad.json');
    const before = closed;
    expect(
      await runCommand(['--fake', 'two', '--fake-flavour', 'trailing-newline', '--filter', 'area:rendering', '--properties', '0', '--quiet', '--json', bad]),
    ).toBe(1);
    expect(closed).toBe(before + 1);
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
    const sweepReport = readReport(swept);
    expect(sweepReport.run).toMatchObject({ adapter: 'fake', target: 'fake:four' });
  });

  it('constants probes it', async () => {
    expect(await constantsCommand(['--fake', 'five'])).toBe(0);
    expect(out.join('\n')).toMatch(/^constants of fake-five 1\.0\.0/m);
    expect(opened).toContain('five');
  });

  it('its own option without it, or two transports at once, is a usage error', async () => {
    await expect(runCommand(['--fake-flavour', 'x', '--properties', '0'])).rejects.toThrow(/--fake-flavour goes with --fake/);
    await expect(runCommand(['--fake', 'x', '--module', 'm.mjs'])).rejects.toThrow(UsageError);
    await expect(runCommand(['--fake', 'x', '--module', 'm.mjs'])).rejects.toThrow(/choose one implementation, not --module and --fake/);
  });
});
