/**
 * The stdio adapter's protocol handling (SPEC PROTO-3), with tiny inline
 * processes; the fault tests (test/runner/faults.test.ts) cover crashes,
 * hangs and garbage.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOSE_GRACE_MS, StdioImplementation } from '../../adapters/stdio.js';
import { running } from '../../adapters/reap.js';
import { CallerError } from '../../vocabulary/errors.js';
import { openImplementation } from '../../running/open.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-stdio-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RESULT = { context: '', included: [], estimated_tokens: 0, total_budget: 0, omissions: [] };
const MANIFEST = { name: 'inline', version: '1', profiles: ['tiered'], capabilities: [] };

/** A node process whose per-line behaviour is `body` (given `m`, the parsed request; `out(obj)` writes a line). */
function script(name: string, body: string, prelude = ''): string {
  const file = join(tmp, `${name}.mjs`);
  writeFileSync(
    file,
    `import { createInterface } from 'node:readline';
const out = (o, end = '\\n') => process.stdout.write(JSON.stringify(o) + end);
${prelude}
createInterface({ input: process.stdin }).on('line', (l) => { const m = JSON.parse(l); ${body} });`,
  );
  return `"${process.execPath}" "${file}"`;
}

describe('stdio adapter', () => {
  it('with --manifest the describe op is never sent', async () => {
    const cmd = script('no-describe', `if (m.op === 'describe') process.exit(9); out({ id: m.id, ok: ${JSON.stringify(RESULT)} });`);
    const mf = join(tmp, 'm.json');
    writeFileSync(mf, JSON.stringify(MANIFEST));
    const o = await openImplementation({ transport: 'stdio', config: { command: cmd, processes: 1 }, manifest: mf, timeoutMs: 2000 });
    try {
      expect(o.manifest).toEqual(MANIFEST);
      expect(await o.impl.assemble({}, { timeoutMs: 2000 })).toEqual({ kind: 'result', value: RESULT });
    } finally {
      await o.impl.close();
    }
  });

  it('an error answer to describe, or an invalid manifest, cannot start: a CallerError (exit 2 on the command line)', async () => {
    const refuses = script('refuses', `out({ id: m.id, error: { code: 'nope', message: 'no describe here' } });`);
    await expect(openImplementation({ transport: 'stdio', config: { command: refuses, processes: 1 }, timeoutMs: 2000 })).rejects.toThrow(
      /describe failed: an error answer: no describe here/,
    );
    const bad = script('bad-manifest', `out({ id: m.id, ok: { name: 'x', profiles: ['tiered'] } });`);
    const err = await openImplementation({ transport: 'stdio', config: { command: bad, processes: 1 }, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallerError);
    expect((err as Error).message).toMatch(/manifest .* is not valid: \(root\): must have required property 'version'/);
  });

  it('matches answers by id even out of order, and reads CRLF lines', async () => {
    // Holds the first assemble request and answers it after the second, with \r\n endings.
    const cmd = script(
      'reorder',
      `if (m.op === 'describe') return out({ id: m.id, ok: ${JSON.stringify(MANIFEST)} }, '\\r\\n');
       if (!held) { held = m; return; }
       out({ id: m.id, ok: { ...${JSON.stringify(RESULT)}, total_budget: 2 } }, '\\r\\n');
       out({ id: held.id, ok: { ...${JSON.stringify(RESULT)}, total_budget: 1 } }, '\\r\\n');`,
      'let held;',
    );
    const o = await openImplementation({ transport: 'stdio', config: { command: cmd, processes: 1 }, timeoutMs: 2000 });
    try {
      const [a, b] = await Promise.all([o.impl.assemble({ n: 1 }, { timeoutMs: 2000 }), o.impl.assemble({ n: 2 }, { timeoutMs: 2000 })]);
      expect(a).toEqual({ kind: 'result', value: { ...RESULT, total_budget: 1 } });
      expect(b).toEqual({ kind: 'result', value: { ...RESULT, total_budget: 2 } });
    } finally {
      await o.impl.close();
    }
  });

  it('an answer with neither ok nor error is a protocol error; an error answer keeps code and message', async () => {
    const cmd = script(
      'shapes',
      `if (m.op === 'describe') return out({ id: m.id, ok: ${JSON.stringify(MANIFEST)} });
      if (m.request.kind === 'empty') out({ id: m.id, result: 1 }); else out({ id: m.id, error: { code: 'invalid_request', message: 'bad' } });`,
    );
    const o = await openImplementation({ transport: 'stdio', config: { command: cmd, processes: 1 }, timeoutMs: 2000 });
    try {
      expect(await o.impl.assemble({ kind: 'empty' }, { timeoutMs: 2000 })).toMatchObject({
        kind: 'protocol',
        message: expect.stringMatching(/neither "ok" nor "error"/),
      });
      expect(await o.impl.assemble({ kind: 'err' }, { timeoutMs: 2000 })).toEqual({
        kind: 'error',
        code: 'invalid_request',
        message: 'bad',
        value: { error: { code: 'invalid_request', message: 'bad' } },
      });
    } finally {
      await o.impl.close();
    }
  });

  it("what waits unread in the stderr pipe when a request is written is not that request's, even when the answer before it was read first", async () => {
    // Request 1 is answered at once and logs 20 ms later; request 2 logs its own line, then answers.
    const cmd = script(
      'late-log',
      `if (m.op === 'describe') return out({ id: m.id, ok: ${JSON.stringify(MANIFEST)} });
       if (m.request.n === 1) { out({ id: m.id, ok: ${JSON.stringify(RESULT)} }); setTimeout(() => process.stderr.write('late line of request 1\\n'), 20); }
       else { process.stderr.write('own line of request 2\\n'); out({ id: m.id, ok: ${JSON.stringify(RESULT)} }); }`,
    );
    const impl = new StdioImplementation({ command: cmd, timeoutMs: 5000 });
    await impl.open();
    try {
      await impl.assemble({ n: 1 }, { timeoutMs: 5000 });
      // Hold the event loop while the late line arrives: it waits in the pipe, unread, as under load.
      const until = Date.now() + 200;
      while (Date.now() < until);
      const second = await impl.assemble({ n: 2 }, { timeoutMs: 5000 });
      expect((await impl.stderrFor(second)).stderr).toBe('own line of request 2\n');
    } finally {
      await impl.close();
    }
  });

  it('each request gets its own full time limit: one timer moved from request to request, and run out while idle, neither cuts one short nor lets a hang go', async () => {
    // Answers after m.request.wait ms, or never when it is negative.
    const cmd = script(
      'waits',
      `if (m.op === 'describe') return out({ id: m.id, ok: ${JSON.stringify(MANIFEST)} });
       if (m.request.wait >= 0) setTimeout(() => out({ id: m.id, ok: ${JSON.stringify(RESULT)} }), m.request.wait);`,
    );
    const impl = new StdioImplementation({ command: cmd, timeoutMs: 5000 });
    await impl.open();
    try {
      const limit = { timeoutMs: 400 };
      expect((await impl.assemble({ wait: 0 }, limit)).kind).toBe('result');
      // Idle for longer than the limit: the timer of the request before runs out with nothing in flight.
      await new Promise((r) => setTimeout(r, 600));
      // Each takes most of the limit: timed from the previous request's start, the second would time out.
      for (let i = 0; i < 3; i++) expect((await impl.assemble({ wait: 250 }, limit)).kind).toBe('result');
      const t0 = performance.now();
      const hung = await impl.assemble({ wait: -1 }, limit);
      expect(hung.kind).toBe('timeout');
      expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
      expect((await impl.assemble({ wait: 0 }, limit)).kind).toBe('result');
    } finally {
      await impl.close();
    }
  });

  it('close() ends stdin, and kills a process that ignores it', async () => {
    const cmd = script('stubborn', `out({ id: m.id, ok: ${JSON.stringify(MANIFEST)} });`, `process.stdin.on('end', () => {}); setInterval(() => {}, 1000);`);
    const impl = new StdioImplementation({ command: cmd, timeoutMs: 2000 });
    await impl.open();
    const t0 = Date.now();
    await impl.close();
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await impl.assemble({}, { timeoutMs: 100 })).toEqual({ kind: 'crash', message: 'the run was closed' });
  });

  // The grandchild writes its pid and sleeps, in a session of its own, holding stdout and stderr.
  const withGrandchild = (name: string, sleeper: string): { cmd: string; pid: () => number } => {
    const pidFile = join(tmp, `${name}.pid`);
    const impl = script(name, `out({ id: m.id, ok: m.op === 'describe' ? ${JSON.stringify(MANIFEST)} : ${JSON.stringify(RESULT)} });`);
    return {
      cmd: `setsid sh -c 'echo $$ > "${pidFile}"; exec ${sleeper}' </dev/null & exec ${impl}`,
      pid: () => Number(readFileSync(pidFile, 'utf8')),
    };
  };

  it.skipIf(process.platform !== 'linux')('close() ends a grandchild in its own session that holds the pipes, and returns at once', async () => {
    const g = withGrandchild('grandchild', 'sleep 300');
    const impl = new StdioImplementation({ command: g.cmd, timeoutMs: 5000 });
    await impl.open();
    expect((await impl.assemble({}, { timeoutMs: 5000 })).kind).toBe('result');
    const t0 = performance.now();
    await impl.close();
    // Not the pipes' grace on top: nothing is left holding them (the bound leaves room for a loaded machine).
    expect(performance.now() - t0).toBeLessThan(2 * CLOSE_GRACE_MS);
    expect(running(g.pid())).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')(
    'close() ends a grandchild that also cleared its environment: found among the descendants before the process exits',
    async () => {
      const g = withGrandchild('grandchild-env', 'env -i sleep 300');
      const impl = new StdioImplementation({ command: g.cmd, timeoutMs: 5000 });
      await impl.open();
      await new Promise((r) => setTimeout(r, 100)); // the grandchild has execed env -i
      const t0 = performance.now();
      await impl.close();
      // Not the pipes' grace on top: nothing is left holding them (the bound leaves room for a loaded machine).
      expect(performance.now() - t0).toBeLessThan(2 * CLOSE_GRACE_MS);
      expect(running(g.pid())).toBe(false);
    },
  );

  it.skipIf(process.platform !== 'linux')(
    'close() returns within its grace when what holds the pipes cannot be found (it left before close looked)',
    async () => {
      // A great-grandchild that clears its environment and whose parent exits at once: init adopts it before close() looks.
      const pidFile = join(tmp, 'orphan.pid');
      const impl0 = script('orphan', `out({ id: m.id, ok: m.op === 'describe' ? ${JSON.stringify(MANIFEST)} : ${JSON.stringify(RESULT)} });`);
      const cmd = `(setsid sh -c 'echo $$ > "${pidFile}"; exec env -i sleep 300' </dev/null &) ; exec ${impl0}`;
      const impl = new StdioImplementation({ command: cmd, timeoutMs: 5000 });
      await impl.open();
      await new Promise((r) => setTimeout(r, 100));
      const pid = Number(readFileSync(pidFile, 'utf8'));
      try {
        const t0 = performance.now();
        await impl.close();
        const ms = performance.now() - t0;
        expect(ms).toBeGreaterThanOrEqual(CLOSE_GRACE_MS - 50);
        expect(ms).toBeLessThan(2 * CLOSE_GRACE_MS + 500);
      } finally {
        if (running(pid)) process.kill(pid, 'SIGKILL');
      }
    },
  );
});
