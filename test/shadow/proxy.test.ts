/**
 * The proxy passes every exchange through as it came, whatever the path,
 * method or status, and answers by itself only for an upstream that gave no
 * answer (502 unreachable, 504 silent past the stated timeout).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssembleServer, listen } from '../../adapters/http-server.js';
import { createShadowProxy } from '../../traffic/shadow/proxy.js';
import type { Exchange } from '../../traffic/shadow/proxy.js';
import { assemble, describe as describeReference } from '../../reference/index.js';
import { rawExchange, endToEndOnly } from './raw-http.js';

const valid = { budget: 40, now: 0, blocks: [{ block_id: 'a', source: 'notes', content: 'hello there', priority: 1 }] };

let upstream: Server;
let upstreamUrl: string;
let proxy: Server;
let proxyUrl: string;
const exchanges: Exchange[] = [];
let oversize = 0;

beforeAll(async () => {
  upstream = createAssembleServer({ assemble: (r) => assemble(r), describe: () => describeReference() });
  upstreamUrl = await listen(upstream, 0, '127.0.0.1');
  proxy = createShadowProxy({
    upstream: upstreamUrl,
    upstreamTimeoutMs: 5000,
    maxBodyBytes: 4096,
    events: { sample: () => true, exchange: (e) => exchanges.push(e), oversize: () => oversize++ },
  });
  proxyUrl = await listen(proxy, 0, '127.0.0.1');
});

afterAll(async () => {
  proxy.closeAllConnections();
  upstream.closeAllConnections();
  await Promise.all([new Promise((r) => proxy.close(r)), new Promise((r) => upstream.close(r))]);
});

describe('the shadow proxy', () => {
  const exchangesOf: Array<[string, string, string, string?]> = [
    ['a result', 'POST', '/assemble', JSON.stringify(valid)],
    ['an error answer', 'POST', '/assemble', JSON.stringify({ budget: -1 })],
    ['a body that is not JSON', 'POST', '/assemble', '{not json'],
    ['the manifest', 'GET', '/describe'],
    ['an unknown path', 'GET', '/nowhere?x=1'],
    ['a wrong method', 'PUT', '/assemble', '{}'],
    [
      "a request over the shadow's body limit",
      'POST',
      '/assemble',
      JSON.stringify({ ...valid, blocks: [{ ...valid.blocks[0], content: 'y'.repeat(10_000) }] }),
    ],
  ];
  it.each(exchangesOf)('passes %s through byte for byte', async (_what, method, path, body) => {
    const direct = await rawExchange(upstreamUrl + path, method, body);
    const shadowed = await rawExchange(proxyUrl + path, method, body);
    expect(shadowed.status).toBe(direct.status);
    expect(shadowed.reason).toBe(direct.reason);
    expect(endToEndOnly(shadowed.headers)).toEqual(endToEndOnly(direct.headers));
    expect(shadowed.body.equals(direct.body)).toBe(true);
  });

  it('hands over the sampled POST /assemble exchanges, and counts the one over its body limit', () => {
    const assembled = exchanges.map((e) => ({ request: e.request.toString('utf8'), status: e.status }));
    expect(assembled).toEqual([
      { request: JSON.stringify(valid), status: 200 },
      { request: JSON.stringify({ budget: -1 }), status: 422 },
      { request: '{not json', status: 400 },
    ]);
    expect(JSON.parse(exchanges[0]!.answer.toString('utf8'))).toEqual(assemble(valid));
    expect(oversize).toBe(1);
  });

  it('answers 502 when the upstream cannot be reached', async () => {
    const dead = createServer();
    const deadUrl = await listen(dead, 0, '127.0.0.1');
    await new Promise((r) => dead.close(r));
    let failures: string[] = [];
    const p = createShadowProxy({ upstream: deadUrl, upstreamTimeoutMs: 5000, maxBodyBytes: 4096, events: { upstreamFailed: (k) => failures.push(k) } });
    const url = await listen(p, 0, '127.0.0.1');
    try {
      const r = await rawExchange(`${url}/assemble`, 'POST', '{}');
      expect(r.status).toBe(502);
      expect(r.body.toString()).toMatch(/gave no answer it can pass on: ECONNREFUSED/);
      expect(failures).toEqual(['refused']);
    } finally {
      failures = [];
      await new Promise((r) => p.close(r));
    }
  });

  it('answers 504 when the upstream is silent past the stated timeout, and cuts an answer broken off', async () => {
    const slow = createServer((req, res) => {
      if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('partial');
        setTimeout(() => res.destroy(), 20);
      }
      // Otherwise never answers.
    });
    const slowUrl = await listen(slow, 0, '127.0.0.1');
    const failures: string[] = [];
    const p = createShadowProxy({ upstream: slowUrl, upstreamTimeoutMs: 100, maxBodyBytes: 4096, events: { upstreamFailed: (k) => failures.push(k) } });
    const url = await listen(p, 0, '127.0.0.1');
    try {
      const r = await rawExchange(`${url}/assemble`, 'POST', '{}');
      expect(r.status).toBe(504);
      // A silent upstream: the idle timer or the bound on the answer's head, whichever fires first (both 100 ms here).
      expect(r.body.toString()).toMatch(/no (bytes|answer) from the upstream .* (for|within) 100 ms/);
      await expect(rawExchange(`${url}/cut`, 'GET')).rejects.toThrow();
      expect(failures).toEqual(['timeout', 'reset']);
    } finally {
      slow.closeAllConnections();
      p.closeAllConnections();
      await Promise.all([new Promise((r) => p.close(r)), new Promise((r) => slow.close(r))]);
    }
  });
});
