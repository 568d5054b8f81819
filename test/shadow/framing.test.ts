/**
 * The body's framing is the proxy's own (SPEC SHD-2), as nginx and Envoy keep it: a client's
 * Content-Length or Transfer-Encoding never goes upstream as it came, so a Connection header
 * that names one cannot strip a body's framing and smuggle it upstream as a second request;
 * a request whose framing or target the proxy cannot pass on (an unknown transfer coding, two
 * Host headers, more header fields than it reads) is refused before anything goes upstream;
 * an upstream answer with more header fields than the proxy reads is a 502. Driven by raw
 * bytes on sockets from both sides: no HTTP library on either end of the test.
 */
import { connect, createServer as createTcpServer } from 'node:net';
import type { Server as TcpServer } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../adapters/http-server.js';
import { createShadowProxy } from '../../traffic/shadow/proxy.js';

let upstream: TcpServer;
let proxy: Server;
let port = 0;
/** Every byte the upstream received, by connection, and how many request heads it saw. */
let received: string[] = [];
let heads = 0;
const refused: number[] = [];
// Past Node's count of 2000 header fields, short enough to stay under its 16 KB of header bytes.
const MANY = 2100;
const manyFields = (): string => 'a:1\r\n'.repeat(MANY);

beforeAll(async () => {
  // An upstream that reads requests as an HTTP/1.1 server does: a head, then the body its own framing gives (none without one).
  upstream = createTcpServer((socket) => {
    const at = received.push('') - 1;
    let buf = '';
    socket.on('data', (chunk) => {
      received[at] += chunk.toString('latin1');
      buf += chunk.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.slice(0, end);
        let rest = buf.slice(end + 4);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (length) {
          if (rest.length < Number(length[1])) return;
          rest = rest.slice(Number(length[1]));
        } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
          const last = rest.indexOf('0\r\n\r\n');
          if (last < 0) return;
          rest = rest.slice(last + 5);
        }
        buf = rest;
        heads++;
        const extra = head.startsWith('GET /many-headers') ? manyFields() : '';
        socket.write(`HTTP/1.1 200 OK\r\n${extra}Content-Length: 2\r\n\r\nok`);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  proxy = createShadowProxy({
    upstream: `http://127.0.0.1:${(upstream.address() as { port: number }).port}`,
    upstreamTimeoutMs: 2000,
    maxBodyBytes: 4096,
    events: { refused: (s) => refused.push(s) },
  });
  const url = await listen(proxy, 0, '127.0.0.1');
  port = Number(new URL(url).port);
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await new Promise((r) => upstream.close(r));
});

/** Raw request bytes to the proxy; what came back before the connection ended or `ms` passed. */
function raw(bytes: string, ms = 1500): Promise<string> {
  return new Promise((done) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('data', (c) => (got += c.toString('latin1')));
    const end = (): void => {
      s.destroy();
      done(got);
    };
    s.on('end', end);
    s.on('error', end);
    setTimeout(end, ms);
    s.write(Buffer.from(bytes, 'latin1'));
  });
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 100));

describe('the framing is the proxy’s own', () => {
  it('a Connection header that names Content-Length does not strip a body’s framing: no second request reaches the upstream', async () => {
    received = [];
    heads = 0;
    const smuggled = 'GET /admin HTTP/1.1\r\nHost: x\r\n\r\n';
    const got = await raw(`GET /describe HTTP/1.1\r\nHost: x\r\nConnection: Content-Length\r\nContent-Length: ${smuggled.length}\r\n\r\n${smuggled}`, 800);
    await settle();
    expect(got.startsWith('HTTP/1.1 200 OK')).toBe(true);
    const all = received.join('');
    // One request upstream, its body framed by the length the proxy read; /admin only as that body's bytes.
    expect(all.match(/^GET \/describe HTTP\/1\.1\r\n/gm)?.length).toBe(1);
    expect(all).toMatch(new RegExp(`\r\nContent-Length: ${smuggled.length}\r\n`, 'i'));
    expect(all.match(/\r\n\r\nGET \/admin/g)?.length).toBe(1);
    // The upstream read one request: /admin was the body's bytes, framed by the length.
    expect(heads).toBe(1);
  });

  it('a chunked body goes chunked, whatever the method', async () => {
    received = [];
    heads = 0;
    const got = await raw('DELETE /x HTTP/1.1\r\nHost: x\r\nConnection: Transfer-Encoding\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n', 800);
    await settle();
    expect(got.startsWith('HTTP/1.1 200 OK')).toBe(true);
    expect(received.join('')).toMatch(/\r\nTransfer-Encoding: chunked\r\n[\s\S]*\r\n\r\n5\r\nhello\r\n0\r\n\r\n$/i);
  });

  it('an HTTP/1.0 request without Host goes with the upstream as its Host', async () => {
    received = [];
    heads = 0;
    const got = await raw('GET /describe HTTP/1.0\r\n\r\n', 800);
    await settle();
    expect(got).toMatch(/^HTTP\/1\.[01] 200 OK/);
    expect(received.join('')).toMatch(/\r\nHost: 127\.0\.0\.1:\d+\r\n/i);
  });
});

describe('refused before anything goes upstream', () => {
  const cases: [string, string, number][] = [
    ['an unknown transfer coding', 'POST /assemble HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n', 501],
    ['two Host header fields', 'GET /describe HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 400],
    ['more header fields than the proxy reads', `GET /describe HTTP/1.1\r\nHost: x\r\n${manyFields()}Content-Length: 5\r\n\r\nhello`, 431],
  ];
  it.each(cases)('%s', async (_what, bytes, status) => {
    received = [];
    heads = 0;
    const got = await raw(bytes);
    await settle();
    expect(got.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(received.join('')).toBe('');
    expect(refused.at(-1)).toBe(status);
  });

  it('an upstream answer with more header fields than the proxy reads is a 502, not passed on with some dropped', async () => {
    const got = await raw('GET /many-headers HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(got.split('\r\n')[0]).toBe('HTTP/1.1 502 Bad Gateway');
    expect(got).toContain('more than 1999 header fields');
  });
});
