/**
 * Hop-by-hop headers stay on their hop (RFC 9110 section 7.6.1, SPEC SHD-2),
 * seen on the wire with raw sockets: what the upstream receives has no
 * Connection, Keep-Alive, TE, Upgrade, Proxy-Connection, Proxy-Authorization,
 * nor any header a Connection header names, and every other header in its
 * order and spelling; what the client receives is the upstream's answer less
 * the upstream's hop-by-hop headers, its status line and body byte for byte.
 * And against peers nobody here wrote: Python's ThreadingHTTPServer as the
 * upstream and urllib (which sends `Connection: close` on every request) as
 * the client, 16 at a time, get through the shadow what they get directly.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer as createTcpServer, connect } from 'node:net';
import type { Server as TcpServer } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../adapters/http-server.js';
import { createShadowProxy } from '../../traffic/shadow/proxy.js';

/** What the raw upstream received last, as bytes. */
let received = '';
let upstream: TcpServer;
let proxy: Server;
let proxyPort = 0;

/** The answer the upstream writes, hop-by-hop headers among end-to-end ones, in an odd spelling and order. */
const ANSWER =
  'HTTP/1.1 200 Fine Thanks\r\nX-First: 1\r\nConnection: keep-alive, X-Hop\r\nX-Hop: for-the-proxy\r\n' +
  'Keep-Alive: timeout=1\r\nProxy-Connection: keep-alive\r\ncontent-TYPE: text/plain\r\nX-Last: 2\r\nContent-Length: 5\r\n\r\nhello';

beforeAll(async () => {
  upstream = createTcpServer((socket) => {
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      received = head.slice(0, head.indexOf('\r\n\r\n'));
      head = '';
      socket.write(ANSWER);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const { port } = upstream.address() as { port: number };
  proxy = createShadowProxy({ upstream: `http://127.0.0.1:${port}`, upstreamTimeoutMs: 5000, maxBodyBytes: 4096, events: {} });
  const url = await listen(proxy, 0, '127.0.0.1');
  proxyPort = Number(new URL(url).port);
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await new Promise((r) => upstream.close(r));
});

/** One request written as raw bytes; the raw bytes of the answer, read until the body's 5 bytes are in. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(proxyPort, '127.0.0.1', () => s.write(text));
    let got = '';
    s.on('data', (c) => {
      got += c.toString('latin1');
      if (/\r\n\r\n[\s\S]*hello$/.test(got)) {
        s.destroy();
        resolve(got);
      }
    });
    s.on('error', reject);
    s.setTimeout(5000, () => reject(new Error(`no whole answer: ${JSON.stringify(got)}`)));
  });
}

const headerLines = (head: string): string[] => head.split('\r\n').slice(1);

describe('hop-by-hop headers, on the wire', () => {
  it('reach the upstream with none of the hop-by-hop headers, nor those Connection names, nor the proxy credentials', async () => {
    await rawRequest(
      [
        'GET /describe HTTP/1.1',
        'Host: assembler.test',
        'X-Trace: abc',
        'Connection: close, X-Secret-Hop',
        'X-Secret-Hop: 1',
        'Keep-Alive: timeout=99',
        'TE: trailers',
        'Upgrade: websocket',
        'Proxy-Connection: keep-alive',
        'Proxy-Authorization: Basic c2VjcmV0OnNlY3JldA==',
        'accept: */*',
        '',
        '',
      ].join('\r\n'),
    );
    expect(received.split('\r\n')[0]).toBe('GET /describe HTTP/1.1');
    // The end-to-end headers in order and spelling; Node's client adds its own Connection for its pooled hop.
    expect(headerLines(received).filter((l) => !/^connection:/i.test(l))).toEqual(['Host: assembler.test', 'X-Trace: abc', 'accept: */*']);
    expect(headerLines(received).filter((l) => /^connection:/i.test(l))).toEqual(['Connection: keep-alive']);
  });

  it("come back to the client without the upstream's, the status line and the rest byte for byte", async () => {
    const got = await rawRequest('GET /describe HTTP/1.1\r\nHost: assembler.test\r\n\r\n');
    const [head, body] = got.split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 200 Fine Thanks');
    // The proxy's own hop: its Connection and Keep-Alive, and no Date of its own.
    const ownHop = (l: string): boolean => /^(connection|keep-alive):/i.test(l);
    expect(headerLines(head!).filter((l) => !ownHop(l))).toEqual(['X-First: 1', 'content-TYPE: text/plain', 'X-Last: 2', 'Content-Length: 5']);
    expect(headerLines(head!).filter(ownHop)).toEqual(['Connection: keep-alive', 'Keep-Alive: timeout=5']);
    expect(body).toBe('hello');
  });
});

/** Python 3 with its standard library, or the reason the peers' test cannot run. */
const python = spawnSync('python3', ['-c', 'import http.server, urllib.request'], { encoding: 'utf8' });

describe.skipIf(python.status !== 0)("Python's http.server upstream and urllib client (Connection: close on every request)", () => {
  it('get through the shadow, 16 at a time, every answer they get directly', () => {
    const script = `
import http.server, threading, urllib.request, json, sys
from concurrent.futures import ThreadPoolExecutor

class Echo(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    def do_POST(self):
        body = self.rfile.read(int(self.headers['Content-Length']))
        out = json.dumps({'echo': json.loads(body)}).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(out)))
        self.end_headers()
        self.wfile.write(out)
    def log_message(self, *a):
        pass

# socketserver's listen backlog of 5 refuses some of 16 connects at once, directly too: room for all of them.
http.server.ThreadingHTTPServer.request_queue_size = 64
server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Echo)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(server.server_address[1], flush=True)
proxy = sys.stdin.readline().strip()

def call(base, i):
    req = urllib.request.Request(base + '/assemble', data=json.dumps({'i': i}).encode(), headers={'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())['echo']['i'] == i
    except urllib.error.HTTPError as e:
        return e.code, False
    except Exception as e:
        return type(e).__name__, False

for name, base in (('direct', 'http://127.0.0.1:%d' % server.server_address[1]), ('shadow', proxy)):
    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(lambda i: call(base, i), range(200)))
    print(name, sum(1 for s, ok in results if s == 200 and ok), flush=True)
`;
    // The upstream's port comes first on stdout; the shadow is started before the script reads its URL on stdin.
    return runPeers(script);
  }, 60_000);
});

/** Starts the Python script, a shadow before the upstream port it prints, and reads its two counts. */
async function runPeers(script: string): Promise<void> {
  const child = spawn('python3', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buffered = '';
  const next = (): Promise<string> =>
    new Promise((resolve) => {
      const look = (): void => {
        const at = buffered.indexOf('\n');
        if (at >= 0) {
          const line = buffered.slice(0, at);
          buffered = buffered.slice(at + 1);
          resolve(line);
        } else child.stdout.once('data', look);
      };
      look();
    });
  child.stdout.on('data', (c: Buffer) => {
    buffered += c.toString();
  });
  const port = Number(await next());
  const shadow = createShadowProxy({ upstream: `http://127.0.0.1:${port}`, upstreamTimeoutMs: 10_000, maxBodyBytes: 4096, events: {} });
  const url = await listen(shadow, 0, '127.0.0.1');
  try {
    child.stdin.write(`${url}\n`);
    lines.push(await next(), await next());
    expect(lines).toEqual(['direct 200', 'shadow 200']);
  } finally {
    child.kill();
    shadow.closeAllConnections();
    await new Promise((r) => shadow.close(r));
  }
}
