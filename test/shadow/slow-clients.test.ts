/**
 * The proxy's bounds on its clients (SPEC SHD-4), with raw sockets: a client
 * that trickles its headers a byte at a time (slowloris) is answered 408 and
 * closed once the header timeout passes, many of them at once; a connection
 * past the cap is closed as it comes; an idle kept-alive connection is closed
 * after the idle timeout; and the proxy answers a plain request all along.
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssembleServer, listen } from '../../adapters/http-server.js';
import { createShadowProxy } from '../../traffic/shadow/proxy.js';
import { assemble, describe as describeReference } from '../../reference/index.js';
import { rawExchange } from './raw-http.js';

let upstream: Server;
let proxy: Server;
let port = 0;

beforeAll(async () => {
  upstream = createAssembleServer({ assemble: (r) => assemble(r), describe: () => describeReference() });
  const upstreamUrl = await listen(upstream, 0, '127.0.0.1');
  proxy = createShadowProxy({
    upstream: upstreamUrl,
    upstreamTimeoutMs: 5000,
    maxBodyBytes: 4096,
    clients: { headersTimeoutMs: 400, requestTimeoutMs: 800, idleTimeoutMs: 300, maxConnections: 40 },
    events: {},
  });
  port = Number(new URL(await listen(proxy, 0, '127.0.0.1')).port);
});

afterAll(async () => {
  proxy.closeAllConnections();
  upstream.closeAllConnections();
  await Promise.all([new Promise((r) => proxy.close(r)), new Promise((r) => upstream.close(r))]);
});

/** A socket to the proxy, with what it received and when it was closed (ms after it opened). */
function open(): Promise<{ socket: Socket; got: () => string; closedAfter: Promise<number> }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let got = '';
    const socket = connect(port, '127.0.0.1');
    const closedAfter = new Promise<number>((done) => socket.on('close', () => done(performance.now() - t0)));
    socket.on('data', (c) => {
      got += c.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('connect', () => resolve({ socket, got: () => got, closedAfter }));
  });
}

describe('slow and idle clients', () => {
  it('closes clients that trickle their headers once the header timeout passes, answering 408, and serves others meanwhile', async () => {
    const slow = await Promise.all(Array.from({ length: 30 }, open));
    const timers = slow.map(({ socket }) => {
      const text = 'POST /assemble HTTP/1.1\r\nHost: x\r\nX-Slow: ';
      let i = 0;
      return setInterval(() => {
        if (!socket.destroyed) socket.write(text[i++ % text.length]!);
      }, 50);
    });
    try {
      const answer = await rawExchange(`http://127.0.0.1:${port}/describe`, 'GET');
      expect(answer.status).toBe(200);
      const closed = await Promise.all(slow.map((s) => s.closedAfter));
      // Closed, not held: the header timeout (400 ms) and the interval Node looks at it (100 ms), with room for a loaded machine.
      expect(Math.max(...closed)).toBeLessThan(4000);
      expect(slow.every((s) => s.got().startsWith('HTTP/1.1 408'))).toBe(true);
    } finally {
      for (const t of timers) clearInterval(t);
    }
  });

  it('closes a connection past the cap as it comes, and an idle kept-alive one after the idle timeout', async () => {
    const held = await Promise.all(Array.from({ length: 40 }, open));
    const extra = await open();
    expect(await extra.closedAfter).toBeLessThan(4000);
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closedAfter));
    // A kept-alive connection: one request answered, then nothing; the proxy closes it.
    const idle = await open();
    idle.socket.write('GET /describe HTTP/1.1\r\nHost: x\r\n\r\n');
    const after = await idle.closedAfter;
    expect(idle.got()).toMatch(/^HTTP\/1\.1 200 /);
    expect(after).toBeGreaterThanOrEqual(300);
    expect(after).toBeLessThan(4000);
  });
});
