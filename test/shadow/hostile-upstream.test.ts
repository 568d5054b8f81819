/**
 * No answer of the upstream ends the proxy (SPEC SHD-2): an upstream written
 * as raw bytes on a socket, not with Node's http, answers each path with one
 * malformed answer (a control byte in the reason phrase or a header, status
 * 000, two lengths, a 101 nobody asked for, a reset mid-body) or an odd but
 * lawful one (1xx before the answer, status 999). The client gets the answer,
 * or a 502 that says why, within the upstream timeout; the failure is counted
 * by kind; and the proxy answers the next request.
 */
import { createServer as createTcpServer } from 'node:net';
import type { Server as TcpServer, Socket } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../adapters/http-server.js';
import { createShadowProxy } from '../../traffic/shadow/proxy.js';
import { rawExchange } from './raw-http.js';

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

/** What the raw upstream writes for each path; a function writes on its own (and may cut the socket). */
const ANSWERS: Record<string, string | ((s: Socket) => void)> = {
  '/ok': OK,
  '/bad-reason': 'HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\nok',
  '/bad-header': 'HTTP/1.1 200 OK\r\nX-Bad: a\x01b\r\nContent-Length: 2\r\n\r\nok',
  '/status-000': 'HTTP/1.1 000 Zero\r\nContent-Length: 2\r\n\r\nok',
  '/status-999': 'HTTP/1.1 999 Odd\r\nContent-Length: 2\r\n\r\nok',
  '/two-lengths': 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok',
  '/switch': 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
  '/continue': `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n${OK}`,
  '/not-http': 'SSH-2.0-OpenSSH_9.2\r\n',
  '/reset-mid-body': (s) => {
    s.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial');
    setTimeout(() => s.resetAndDestroy(), 20);
  },
  '/close-before-headers': (s) => s.end(),
  // Bytes that never make a head, one every 100 ms; interim answers that never end in one: each resets an idle timer.
  '/drip': (s) => {
    const head = 'HTTP/1.1 200 OK\r\nX-Slow: ' + 'a'.repeat(200);
    let i = 0;
    const t = setInterval(() => (s.destroyed ? clearInterval(t) : s.write(head[i++ % head.length]!)), 100);
  },
  '/processing': (s) => {
    const t = setInterval(() => (s.destroyed ? clearInterval(t) : s.write('HTTP/1.1 102 Processing\r\n\r\n')), 100);
  },
};

let upstream: TcpServer;
let proxy: Server;
let proxyUrl: string;
const failures: string[] = [];

/** The upstream's sockets, ended at the close: one that drips bytes may still be open then. */
const upstreamSockets = new Set<Socket>();

beforeAll(async () => {
  upstream = createTcpServer((socket) => {
    upstreamSockets.add(socket);
    socket.on('close', () => upstreamSockets.delete(socket));
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const path = head.split(' ')[1] ?? '/';
      head = head.slice(end + 4);
      const answer = ANSWERS[path] ?? OK;
      if (typeof answer === 'function') answer(socket);
      else socket.write(Buffer.from(answer, 'latin1'));
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const { port } = upstream.address() as { port: number };
  proxy = createShadowProxy({
    upstream: `http://127.0.0.1:${port}`,
    upstreamTimeoutMs: 2000,
    maxBodyBytes: 4096,
    events: { upstreamFailed: (k) => failures.push(k) },
  });
  proxyUrl = await listen(proxy, 0, '127.0.0.1');
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  for (const s of upstreamSockets) s.destroy();
  await new Promise((r) => upstream.close(r));
});

describe('a pooled connection the upstream closes under a request', () => {
  it('sends the request once more on a new connection: the client gets its answer, and nothing is counted as failed', async () => {
    // Each connection answers its first request and closes under the second, as a server that drops idle connections does.
    let seen = 0;
    const closing = createTcpServer((socket) => {
      let served = 0;
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        seen++;
        if (served++ === 0) socket.write(OK);
        else socket.destroy();
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => closing.listen(0, '127.0.0.1', r));
    const lost: string[] = [];
    const p = createShadowProxy({
      upstream: `http://127.0.0.1:${(closing.address() as { port: number }).port}`,
      upstreamTimeoutMs: 2000,
      maxBodyBytes: 4096,
      events: { upstreamFailed: (k) => lost.push(k) },
    });
    const url = await listen(p, 0, '127.0.0.1');
    try {
      for (let i = 0; i < 3; i++) {
        const r = await rawExchange(`${url}/assemble`, 'POST', '{"n":1}');
        expect([r.status, r.body.toString()]).toEqual([200, 'ok']);
      }
      expect(lost).toEqual([]);
      // The second went out twice: on the pooled connection that closed under it, then on a new one; the third found no
      // pooled connection left and went out once, on a new one.
      expect(seen).toBe(4);
      // A request that is not idempotent (RFC 9110 9.2.2) and not the pure assemble endpoint is never sent twice: its loss is a 502.
      seen = 0;
      const charged: number[] = [];
      for (let i = 0; i < 2; i++) charged.push((await rawExchange(`${url}/charge`, 'POST', '{"cents":100}')).status);
      expect(charged).toEqual([502, 200]);
      expect(seen).toBe(2);
      expect(lost).toEqual(['reset']);
      // GET is idempotent: sent once more, as /assemble is.
      seen = 0;
      expect((await rawExchange(`${url}/describe`, 'GET')).status).toBe(200);
      expect((await rawExchange(`${url}/describe`, 'GET')).status).toBe(200);
      expect(seen).toBe(3);
    } finally {
      p.closeAllConnections();
      await new Promise((r) => p.close(r));
      await new Promise((r) => closing.close(r));
    }
  });
});

describe('the proxy before an upstream that answers anything', () => {
  it.each([
    ['a control byte in the reason phrase', '/bad-reason', 'malformed'],
    ['a control byte in a header value', '/bad-header', 'malformed'],
    ['status 000', '/status-000', 'malformed'],
    ['two Content-Length headers', '/two-lengths', 'malformed'],
    ['a 101 to a request that asked for no upgrade', '/switch', 'malformed'],
    ['bytes that are not HTTP', '/not-http', 'malformed'],
    ['a close before any header', '/close-before-headers', 'reset'],
  ])('%s: a 502 that says why, counted, and the next request answered', async (_what, path, kind) => {
    failures.length = 0;
    const started = performance.now();
    const r = await rawExchange(proxyUrl + path, 'GET');
    expect(r.status).toBe(502);
    expect(r.body.toString()).toMatch(
      /^ctxconform shadow: the upstream http:\/\/127\.0\.0\.1:\d+ (gave no answer it can pass on|sent an answer that cannot be passed on|answered 101 Switching Protocols)/,
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(failures).toEqual([kind]);
    const next = await rawExchange(`${proxyUrl}/ok`, 'GET');
    expect([next.status, next.body.toString()]).toEqual([200, 'ok']);
  });

  it('passes on the answer after 1xx interim answers, and a status of 999, as they came', async () => {
    failures.length = 0;
    const after = await rawExchange(`${proxyUrl}/continue`, 'GET');
    expect([after.status, after.body.toString()]).toEqual([200, 'ok']);
    const odd = await rawExchange(`${proxyUrl}/status-999`, 'GET');
    expect([odd.status, odd.reason, odd.body.toString()]).toEqual([999, 'Odd', 'ok']);
    expect(failures).toEqual([]);
  });

  it.each([
    ['drips header bytes', '/drip'],
    ['sends 102 Processing every 100 ms', '/processing'],
  ])('an upstream that %s is a 504 within --upstream-timeout of the request, not held open by each byte', async (_what, path) => {
    failures.length = 0;
    const started = performance.now();
    const r = await rawExchange(proxyUrl + path, 'GET');
    const took = performance.now() - started;
    expect(r.status).toBe(504);
    expect(r.body.toString()).toMatch(/^ctxconform shadow: no answer from the upstream http:\/\/127\.0\.0\.1:\d+ within 2000 ms of the request/);
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(4000);
    expect(failures).toEqual(['timeout']);
  });

  it('cuts the answer to the client when the upstream resets mid-body, counts it, and answers the next request', async () => {
    failures.length = 0;
    await expect(rawExchange(`${proxyUrl}/reset-mid-body`, 'GET')).rejects.toThrow();
    expect(failures).toEqual(['reset']);
    const next = await rawExchange(`${proxyUrl}/ok`, 'GET');
    expect(next.status).toBe(200);
  });
});
