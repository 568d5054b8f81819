/**
 * The http adapter against the reference served by `ctxconform serve`'s
 * server, and against small servers that misbehave on one request.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssembleServer, listen, MAX_REQUEST_BYTES } from '../../adapters/http-server.js';
import { StartError } from '../../vocabulary/errors.js';
import { openImplementation } from '../../running/open.js';
import { runSuite } from '../../running/run.js';
import type { Report, Status } from '../../protocol/types.js';
import { assemble, describe as describeReference } from '../../reference/index.js';
import { FAULT_CASES } from '../fixtures/faulty/cases.js';

let reference: Server;
let base: string;

beforeAll(async () => {
  reference = createAssembleServer({ assemble: (r) => assemble(r), describe: describeReference });
  base = await listen(reference, 0, '127.0.0.1');
});
afterAll(() => {
  reference.closeAllConnections();
  reference.close();
});

describe('serve: the reference over http', () => {
  it('answers the protocol statuses', async () => {
    const ok = await fetch(`${base}/assemble`, { method: 'POST', body: JSON.stringify(FAULT_CASES[0]!.request) });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { included: string[] }).included).toEqual(['a1']);

    const invalid = await fetch(`${base}/assemble`, { method: 'POST', body: JSON.stringify({ now: 0, budget: -1, blocks: [] }) });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as { error: { code: string } }).error.code).toBe('invalid_request');

    // Pinned blocks cost 25 > budget 10: pinned_overflow (PIN-2), also a 422.
    const overflow = await fetch(`${base}/assemble`, {
      method: 'POST',
      body: JSON.stringify({ now: 0, budget: 10, blocks: [{ block_id: 'p', source: 'memory', content: 'x'.repeat(100), priority: 1, pinned: true }] }),
    });
    expect(overflow.status).toBe(422);
    expect(((await overflow.json()) as { error: { code: string } }).error.code).toBe('pinned_overflow');

    expect((await fetch(`${base}/assemble`, { method: 'POST', body: '{"now": 0,' })).status).toBe(400);
    const get = await fetch(`${base}/assemble`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${base}/describe`, { method: 'POST', body: '{}' })).status).toBe(405);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    const big = await fetch(`${base}/assemble`, { method: 'POST', body: 'x'.repeat(MAX_REQUEST_BYTES + 1) });
    expect(big.status).toBe(413);
    const manifest = (await (await fetch(`${base}/describe`)).json()) as { profiles: string[] };
    expect(manifest.profiles).toEqual(['tiered', 'ranked']);
  });

  it('runs the suite over http with every case passing', async () => {
    const { impl, manifest, adapter } = await openImplementation({ transport: 'http', config: { base }, timeoutMs: 2000, concurrency: 4 });
    expect(adapter).toBe('http');
    try {
      const r = await runSuite({ cases: FAULT_CASES, impl, manifest, timeoutMs: 2000, concurrency: 4, properties: 0, seed: 1 });
      expect(r.summary.pass).toBe(FAULT_CASES.length);
      expect(r.cases.map((c) => c.id)).toEqual(FAULT_CASES.map((c) => c.id).sort());
    } finally {
      await impl.close();
    }
  });
});

/** A server that answers like the reference except on the 2nd assemble request. */
async function faultyServer(fault: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close: () => void }> {
  let n = 0;
  const server = createServer((req, res) => {
    if (req.url === '/describe') {
      res.end(JSON.stringify({ ...describeReference(), capabilities: [] }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      n++;
      if (n === 2) return fault(req, res);
      const answer = assemble(JSON.parse(Buffer.concat(chunks).toString('utf8')), { capabilities: [] });
      res.writeHead('error' in answer ? 422 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  const url = await listen(server, 0, '127.0.0.1');
  return {
    url,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const FAULT_TIMEOUT = 2000;

async function runAgainst(fault: (req: IncomingMessage, res: ServerResponse) => void, timeoutMs = FAULT_TIMEOUT): Promise<Report> {
  const s = await faultyServer(fault);
  // Only the hanging server waits it out; on a loaded CI machine a shorter one turns a slow answer into a timeout.
  const { impl, manifest } = await openImplementation({ transport: 'http', config: { base: s.url }, timeoutMs, concurrency: 1 });
  try {
    return await runSuite({ cases: FAULT_CASES, impl, manifest, timeoutMs, concurrency: 1, properties: 0, seed: 1 });
  } finally {
    await impl.close();
    s.close();
  }
}

function only(r: Report, status: Status): string {
  const second = FAULT_CASES[1]!.id;
  expect(Object.fromEntries(r.cases.map((c) => [c.id, c.status]))).toEqual(
    Object.fromEntries(FAULT_CASES.map((c) => [c.id, c.id === second ? status : 'pass'])),
  );
  return r.cases.find((c) => c.id === second)!.message!;
}

describe('http faults (one case affected, the run goes on)', () => {
  it('connection reset: crash', async () => {
    expect(only(await runAgainst((req) => req.socket.destroy()), 'crash')).toMatch(/reset or closed/);
  });
  it('HTTP 500: crash with the body', async () => {
    expect(only(await runAgainst((_req, res) => res.writeHead(500).end('boom: NullPointerException')), 'crash')).toMatch(
      /HTTP 500 "boom: NullPointerException"/,
    );
  });
  it('a body that is not JSON: error', async () => {
    expect(only(await runAgainst((_req, res) => res.writeHead(200).end('<html>oops</html>')), 'error')).toMatch(
      /HTTP 200 body is not JSON: "<html>oops<\/html>"/,
    );
  });
  it('a wrong status (404): error naming the expected ones', async () => {
    expect(only(await runAgainst((_req, res) => res.writeHead(404).end('not here')), 'error')).toMatch(
      /expected HTTP 200 \(result\) or 422 \(error answer\), got 404/,
    );
  });
  it('a hang: timeout', async () => {
    expect(only(await runAgainst(() => {}), 'timeout')).toMatch(/within 2000 ms/);
  });
  it('a body trickling a byte every 300 ms: timeout at the deadline from the send, not reset by each byte', async () => {
    const t0 = performance.now();
    const msg = only(
      await runAgainst((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => res.write(' '), 300);
        res.on('close', () => clearInterval(t));
      }),
      'timeout',
    );
    expect(msg).toMatch(/was not complete within 2000 ms/);
    // Five cases answered at once and one cut at its deadline; a restarted body timer would never cut it.
    expect(performance.now() - t0).toBeLessThan(15_000);
  });
  it('an answer over 16 MiB: error, refused', async () => {
    const msg = only(
      await runAgainst((_req, res) => {
        res.writeHead(200);
        res.end('x'.repeat(17 * 1024 * 1024));
        // --timeout bounds the whole exchange, and 17 MiB can take longer than 2 s on a loaded machine: the refusal is what is tested.
      }, 20_000),
      'error',
    );
    expect(msg).toMatch(/larger than 16777216 bytes/);
  });
  it('connection refused at start: StartError (exit 2 on the command line)', async () => {
    const s = await faultyServer(() => {});
    s.close();
    await new Promise((r) => setTimeout(r, 50));
    const err = await openImplementation({ transport: 'http', config: { base: s.url }, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toMatch(/connection refused/);
  });
  it('a 422 whose body is not an error answer: error', async () => {
    expect(only(await runAgainst((_req, res) => res.writeHead(422).end('{"problems":[]}')), 'error')).toMatch(/HTTP 422 body is not an error answer/);
  });
  it('a server without /describe: StartError suggesting --manifest; with --manifest it runs', async () => {
    const server = createServer((req, res) => {
      if (req.url !== '/assemble') return void res.writeHead(404).end('no');
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const a = assemble(JSON.parse(Buffer.concat(chunks).toString('utf8')), { capabilities: [] });
        res.writeHead('error' in a ? 422 : 200).end(JSON.stringify(a));
      });
    });
    const url = await listen(server, 0, '127.0.0.1');
    try {
      await expect(openImplementation({ transport: 'http', config: { base: url }, timeoutMs: 1000 })).rejects.toThrow(
        /answered HTTP 404: "no"; give --manifest/,
      );
      const manifest = join(mkdtempSync(join(tmpdir(), 'ctxconform-http-')), 'm.json');
      writeFileSync(manifest, JSON.stringify({ name: 'm', version: '1', profiles: ['tiered'], capabilities: [] }));
      const o = await openImplementation({ transport: 'http', config: { base: url }, manifest, timeoutMs: 1000 });
      const r = await runSuite({ cases: FAULT_CASES, impl: o.impl, manifest: o.manifest, timeoutMs: 1000, concurrency: 2, properties: 0, seed: 1 });
      await o.impl.close();
      expect(r.summary.pass).toBe(FAULT_CASES.length);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
  it('a URL that is not http: ConfigError', async () => {
    await expect(openImplementation({ transport: 'http', config: { base: 'ftp://example.org' } })).rejects.toThrow(/http:\/\/ or https:\/\//);
  });
});
