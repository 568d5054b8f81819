/**
 * Misbehaving implementations over stdio: each fault lands on one case with
 * the status SPEC PROTO-5 gives it, and every other case is still judged
 * (and passes, since the fakes are the reference otherwise).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { StdioImplementation } from '../../adapters/stdio.js';
import { encodeRequest } from '../../adapters/wire.js';
import { StartError } from '../../vocabulary/errors.js';
import { openImplementation } from '../../running/open.js';
import { runSuite } from '../../running/run.js';
import { formatFailure } from '../../running/console.js';
import type { Report, Status } from '../../protocol/types.js';
import { resultsOf } from '../../protocol/types.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { listedFor, PROPERTIES } from '../../judging/properties/index.js';
import { FAULT_CASES } from '../fixtures/faulty/cases.js';
import { fixtureCommand } from '../fixture-command.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-faults-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The line test/fixtures/faulty/stderr-per-request.ts logs for a request. */
const logLine = (request: unknown): string => `log: handling ${createHash('sha1').update(JSON.stringify(request)).digest('hex')}\n`;
const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/faulty/${name}.ts`, import.meta.url));
const dieOnStart = `"${process.execPath}" "${fileURLToPath(new URL('../fixtures/faulty/die-on-start.mjs', import.meta.url))}"`;
const command = (name: string, tag = ''): string => fixtureCommand(fixture(name), join(tmp, `${name}${tag}.marker`));
// Generous enough that a busy 2-core CI machine does not turn a slow answer into a timeout.
const TIMEOUT = 1000;

/** One process, so that `concurrency` requests are pipelined into it and the fault's request count is the run's. */
async function runFault(name: string, concurrency = 1, prefix = ''): Promise<Report> {
  const { impl, manifest } = await openImplementation({
    transport: 'stdio',
    config: { command: prefix + command(name, `-c${concurrency}`), processes: 1 },
    timeoutMs: TIMEOUT,
    concurrency,
  });
  try {
    return await runSuite({ cases: FAULT_CASES, impl, manifest, timeoutMs: TIMEOUT, concurrency, properties: 0, seed: 1 });
  } finally {
    await impl.close();
  }
}

/** Every case passes except `id`, which gets `status`. */
function expectOnly(report: Report, id: string, status: Status): string {
  const statuses = Object.fromEntries(report.cases.map((c) => [c.id, c.status]));
  const want = Object.fromEntries(FAULT_CASES.map((c) => [c.id, c.id === id ? status : 'pass']));
  expect(statuses).toEqual(want);
  expect(report.summary.total).toBe(FAULT_CASES.length);
  return report.cases.find((c) => c.id === id)!.message ?? '';
}

describe('stdio faults (one case affected, the run goes on)', () => {
  it('the fake without its fault passes every case (the control)', async () => {
    writeFileSync(join(tmp, 'crash-control.marker'), 'x');
    const { impl, manifest } = await openImplementation({
      transport: 'stdio',
      config: { command: command('crash', '-control'), processes: 1 },
      timeoutMs: TIMEOUT,
    });
    try {
      const r = await runSuite({ cases: FAULT_CASES, impl, manifest, timeoutMs: TIMEOUT, concurrency: 1, properties: 0, seed: 1 });
      expect(r.summary).toEqual({ total: 6, pass: 6, fail: 0, error: 0, timeout: 0, crash: 0, flaky: 0, skip: 0 });
    } finally {
      await impl.close();
    }
  });

  it('crash mid-run (exits on the 3rd request): crash, restarted, others pass', async () => {
    const r = await runFault('crash');
    const msg = expectOnly(r, 'fault/c-budget', 'crash');
    expect(msg).toMatch(/exited with code 3/);
    expect(resultsOf(r.cases, 'case').find((c) => c.id === 'fault/c-budget')!.stderr).toContain('about to crash on request 3');
  });

  it('crash with 4 requests pipelined: the same one case crashes', async () => {
    expectOnly(await runFault('crash', 4), 'fault/c-budget', 'crash');
  });

  it('hang (never answers one request): timeout, killed and restarted', async () => {
    const r = await runFault('hang');
    expect(expectOnly(r, 'fault/b-expired', 'timeout')).toMatch(new RegExp(`no answer within ${TIMEOUT} ms`));
    expect(resultsOf(r.cases, 'case').find((c) => c.id === 'fault/b-expired')!.stderr).toContain('thinking forever');
  });

  it('hang with requests pipelined behind it: only the hung one times out', async () => {
    expectOnly(await runFault('hang', 4), 'fault/b-expired', 'timeout');
  });

  it('garbage on stdout: error with the raw text quoted', async () => {
    const msg = expectOnly(await runFault('garbage'), 'fault/b-expired', 'error');
    expect(msg).toMatch(/not a JSON object/);
    expect(msg).toContain('Traceback (most recent call last)');
  });

  it('an answer with a wrong id: error naming both ids', async () => {
    const msg = expectOnly(await runFault('wrong-id'), 'fault/b-expired', 'error');
    expect(msg).toMatch(/answer id "\d+-wrong" does not match the request id "\d+"/);
  });

  it('a partial line then exit: crash, quoting the partial line', async () => {
    const msg = expectOnly(await runFault('partial'), 'fault/c-budget', 'crash');
    expect(msg).toMatch(/exited with code 0.*partial answer line "\{\\"id\\":/s);
  });

  it('closes its input and lives on (broken pipe): crash, restarted', async () => {
    // `exec`: without it the shell that started the command still holds the pipe open.
    const msg = expectOnly(await runFault('closes-stdin', 1, 'exec '), 'fault/c-budget', 'crash');
    expect(msg).toMatch(/closed its input \(EPIPE\)/);
  });

  it('stderr flood (8 MiB): every case passes, and only the last 4 KiB is kept', async () => {
    const impl = new StdioImplementation({ command: command('stderr-flood', '-direct'), timeoutMs: 5000 });
    await impl.open();
    try {
      const first = await impl.assemble(FAULT_CASES[0]!.request, { timeoutMs: 5000 });
      const second = await impl.assemble(FAULT_CASES[1]!.request, { timeoutMs: 5000 });
      expect(first.kind).toBe('result');
      expect(second.kind).toBe('result');
      // As the runner reads it for a failing case, once the stream is quiet: stderr is another pipe than the
      // answer's, so what was written to it just before the answer may still be on its way when the answer is read.
      const { stderr } = await impl.stderrFor(second);
      expect(stderr!.length).toBeLessThanOrEqual(4096);
      expect(stderr!.length).toBeGreaterThan(4000);
      expect(stderr).toMatch(/the last words before the answer\n$/);
      expect(stderr).not.toContain('the first words');
    } finally {
      await impl.close();
    }
    const r = await runFault('stderr-flood');
    expect(r.summary.pass).toBe(FAULT_CASES.length);
  });

  it('stderr of 16 KiB: its first and last 2 KiB, and a line naming the bytes left out between them', async () => {
    const impl = new StdioImplementation({ command: `STDERR_FLOOD_KIB=16 ${command('stderr-flood', '-16k')}`, timeoutMs: 5000 });
    await impl.open();
    try {
      await impl.assemble(FAULT_CASES[0]!.request, { timeoutMs: 5000 });
      // As the runner reads it for a failing case: once the stream is quiet.
      const { stderr } = await impl.stderrFor(await impl.assemble(FAULT_CASES[1]!.request, { timeoutMs: 5000 }));
      const written = 'the first words of the request\n'.length + 16 * 1024 + 'the last words before the answer\n'.length;
      expect(stderr).toMatch(/^the first words of the request\n/);
      expect(stderr).toMatch(/the last words before the answer\n$/);
      expect(stderr).toContain(`\n[... ${written - 4096} bytes of stderr left out ...]\n`);
      expect(stderr!.length).toBeLessThan(4096 + 60);
    } finally {
      await impl.close();
    }
  });

  for (const concurrency of [1, 4]) {
    it(`stderr at concurrency ${concurrency}: every failing case carries its own log line, and says when others were in flight`, async () => {
      const cases = loadCorpus()
        .cases.filter((c) => c.profile === 'tiered' && c.capabilities.length === 0)
        .slice(0, 60);
      // One process: at concurrency 4 the requests are pipelined into it, and their stderr interleaves.
      const { impl, manifest } = await openImplementation({
        transport: 'stdio',
        config: { command: command('stderr-per-request', `-c${concurrency}`), processes: 1 },
        timeoutMs: 5000,
        concurrency,
      });
      let r: Report;
      try {
        r = await runSuite({ cases, impl, manifest, timeoutMs: 5000, concurrency, properties: 0, seed: 1 });
      } finally {
        await impl.close();
      }
      const failing = resultsOf(r.cases, 'case').filter((c) => c.status === 'fail');
      expect(failing.length).toBeGreaterThan(40);
      for (const c of failing) {
        const own = logLine(cases.find((x) => x.id === c.id)!.request);
        expect(c.stderr, c.id).toContain(own);
        // Alone, its own line and nothing else; in company, another request's line only with the count saying so.
        if (concurrency === 1) {
          expect(c.stderr).toBe(own);
          expect(c.stderr_in_flight).toBeUndefined();
        } else if (c.stderr!.split('\n').filter((l) => l.startsWith('log: ')).length > 1) {
          expect(c.stderr_in_flight, c.id).toBeGreaterThan(0);
          expect(c.stderr).not.toMatch(/in flight/);
          // The terminal's tail says it first.
          expect(formatFailure(c)).toContain(`stderr (tail):\n      [the process's stderr while this request and ${c.stderr_in_flight} other`);
        }
      }
    });
  }

  it('hangs on one request in twenty: each hanging case is timeout, every other case passes, and each property waits out at most two hangs', async () => {
    // Requests are hashed as the fake does (hangs-one-in-twenty.ts).
    const hangs = (request: unknown): boolean => createHash('sha1').update(JSON.stringify(request)).digest().readUInt32BE(0) % 20 === 0;
    const log = join(tmp, 'hangs.log');
    writeFileSync(log, '');
    const cases = loadCorpus().cases;
    // Each hang costs this long, so it is short; long enough that a loaded 2-core machine answers every other request in time.
    const short = 700;
    const { impl, manifest } = await openImplementation({
      transport: 'stdio',
      config: { command: fixtureCommand(fixture('hangs-one-in-twenty'), log), processes: 4 },
      timeoutMs: short,
      concurrency: 4,
    });
    let r: Report;
    try {
      r = await runSuite({ cases, impl, manifest, timeoutMs: short, concurrency: 4, properties: 100, seed: 1 });
    } finally {
      await impl.close();
    }
    // What the fake parses: the request as the wire carries it (NaN cases are not sent, PROTO-6).
    const wire = new Map(
      cases.flatMap((c) => {
        const e = encodeRequest(c.request);
        return e.ok ? [[c, JSON.parse(e.json) as unknown] as const] : [];
      }),
    );
    const sendable = [...wire.keys()];
    const hanging = sendable.filter((c) => hangs(wire.get(c)));
    expect(hanging.length).toBeGreaterThan(5);
    const status = new Map(r.cases.map((c) => [c.id, c.status]));
    for (const c of sendable) expect(`${c.id}: ${status.get(c.id)}`).toBe(`${c.id}: ${hanging.includes(c) ? 'timeout' : 'pass'}`);
    const props = r.cases.filter((c) => c.kind === 'property');
    expect(props).toHaveLength(PROPERTIES.filter((p) => listedFor(p, manifest)).length);
    for (const p of props) expect(p.status, p.id).toBe('timeout');
    // One hang ends a property's runs; shrinking may wait out one more, then stops and says so.
    const waited = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    expect(waited).toBeLessThanOrEqual(hanging.length + 2 * props.length);
    expect(props.some((p) => /shrinking stopped at a timeout/.test(p.message ?? ''))).toBe(true);
  }, 60_000);

  it('a 100 MiB answer: error (refused past 16 MiB), later answers still read', async () => {
    const before = process.memoryUsage().rss;
    const msg = expectOnly(await runFault('huge'), 'fault/b-expired', 'error');
    expect(msg).toMatch(/longer than 16777216 bytes; refused unread/);
    // Not buffered: far less than the 100 MiB line stays in this process.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('dies on start: openImplementation throws a StartError with the reason', async () => {
    const err = await openImplementation({ transport: 'stdio', config: { command: dieOnStart, processes: 1 }, timeoutMs: TIMEOUT }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toMatch(/exited with code 1/);
    expect((err as Error).message).toContain('cannot load the model file');
  });

  it('dies on start with --manifest (no describe): still a StartError', async () => {
    const manifest = join(tmp, 'manifest.json');
    writeFileSync(manifest, JSON.stringify({ name: 'x', version: '1', profiles: ['tiered'], capabilities: [] }));
    const err = await openImplementation({ transport: 'stdio', config: { command: dieOnStart, processes: 1 }, manifest, timeoutMs: TIMEOUT }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toContain('cannot load the model file');
  });

  it('a command that does not exist: StartError naming the shell error', async () => {
    const err = await openImplementation({
      transport: 'stdio',
      config: { command: 'ctxconform-no-such-command-xyz --serve', processes: 1 },
      timeoutMs: TIMEOUT,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toMatch(/code 127.*not found/s);
  });
});
