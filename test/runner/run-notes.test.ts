/**
 * One line for a pattern many results share and no case line can name
 * (running/run-notes.ts), against peers written in Python, as
 * vendors write them: a stdio implementation with a debug print left on
 * stdout, and Python's http.server answering in pieces with Nagle's algorithm
 * on (test/fixtures/peers/). And the HTTP adapter's own side: each request
 * goes out in one write, so a server never waits on the kit's pieces.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { openHttp } from '../../adapters/http.js';
import { cli } from '../cli.js';

const PEERS = 'test/fixtures/peers';
const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) p.kill();
});

/** Python's http.server over the example, once it says its port. */
function pythonServer(...flags: string[]): Promise<string> {
  const p = spawn('python3', [`${PEERS}/http_server.py`, '0', ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(p);
  return new Promise((resolve, reject) => {
    let text = '';
    p.stdout!.on('data', (c: Buffer) => {
      text += c.toString();
      const m = /listening (\d+)/.exec(text);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    p.once('exit', (code) => reject(new Error(`the Python server ended (${code}): ${text}`)));
  });
}

describe('run notes', () => {
  it('a debug print on stdout: the case lines stay, and one line says the answers were not JSON and that logs belong on stderr', () => {
    const r = cli('run', '--stdio', `python3 ${PEERS}/noisy_stdout.py`, '--filter', 'expiry/*', '--properties', '0');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/\nERROR expiry\/\S+ {2}\[/);
    expect(r.stdout).toMatch(
      /\n(\d+) answers were not JSON: the implementation writes something else to stdout, where its answers go \(logs belong on stderr\); the first: "DEBUG assembling"\n/,
    );
  }, 60_000);

  it("Python's http.server answering in pieces: one line names the delayed-ACK interval and the fix; with TCP_NODELAY, none", async () => {
    const slow = cli('run', '--http', await pythonServer(), '--filter', 'tiers/*', '--properties', '0');
    expect(slow.status).toBe(0);
    expect(slow.stdout).toMatch(
      /\n\d+ of \d+ HTTP answers took 38 to 60 ms, the interval a client waits before it acknowledges: .* Set TCP_NODELAY on the server's sockets/,
    );
    const quick = cli('run', '--http', await pythonServer('--nodelay'), '--filter', 'tiers/*', '--properties', '0');
    expect(quick.status).toBe(0);
    expect(quick.stdout).not.toMatch(/HTTP answers took/);
  }, 60_000);
});

describe('the HTTP adapter', () => {
  it('sends each request in one write: the server reads the whole request, headers and body, at once', async () => {
    /** The first read of each POST /assemble, and the manifest for GET /describe. */
    const firstReads: string[] = [];
    const manifest = { name: 'x', version: '1', profiles: ['tiered'], capabilities: [] };
    const server = createServer((socket) => {
      let pending = '';
      socket.on('data', (chunk) => {
        const text = chunk.toString('latin1');
        if (pending === '' && text.startsWith('POST')) firstReads.push(text);
        pending += text;
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = pending.startsWith('GET') ? JSON.stringify(manifest) : '{"context":"","included":[],"estimated_tokens":0,"total_budget":5,"omissions":[]}';
        pending = '';
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { impl } = await openHttp({ base: url, manifest });
    try {
      const content = 'x'.repeat(4000);
      for (let i = 0; i < 10; i++)
        await impl.assemble({ now: 0, budget: 5, blocks: [{ block_id: `b${i}`, source: 's', content, priority: 1 }] }, { timeoutMs: 5000 });
      expect(firstReads).toHaveLength(10);
      for (const read of firstReads) expect(read).toMatch(/^POST \/assemble HTTP\/1\.1\r\n[\s\S]*\r\n\r\n\{[\s\S]*\}$/);
    } finally {
      await impl.close();
      server.close();
    }
  });
});
