/**
 * Any assemble function behind the http protocol (SPEC PROTO-4): what
 * `ctxconform serve` runs for the reference, so a vendor can compare answers
 * by hand with curl. Status codes: 200 result, 422 error answer (invalid
 * request or pinned overflow), 400 body not JSON, 413 body over the limit,
 * 405 wrong method, 404 unknown path.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isErrorAnswer } from './outcome.js';

export const MAX_REQUEST_BYTES = 1024 * 1024;

export interface ServedImplementation {
  assemble(request: unknown): unknown;
  describe(): unknown;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function problem(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  send(res, status, { error: { code: 'invalid_request', message } }, headers);
}

/** The body, or undefined after answering 413 when it is over the limit. */
function readBody(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    const tooLarge = (): void => {
      problem(res, 413, `request body over ${MAX_REQUEST_BYTES} bytes`, { connection: 'close' });
      req.resume();
      resolve(undefined);
    };
    if (declared > MAX_REQUEST_BYTES) return tooLarge();
    const chunks: Buffer[] = [];
    let total = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      total += c.length;
      if (total > MAX_REQUEST_BYTES) {
        over = true;
        chunks.length = 0;
        tooLarge();
      } else chunks.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

export function createAssembleServer(impl: ServedImplementation): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '') || '/';
    if (path === '/describe') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return problem(res, 405, 'use GET /describe', { allow: 'GET, HEAD' });
      return send(res, 200, impl.describe());
    }
    if (path !== '/assemble') return problem(res, 404, `no such path ${JSON.stringify(path)}: POST /assemble, GET /describe`);
    if (req.method !== 'POST') {
      req.resume();
      return problem(res, 405, 'use POST /assemble with the request as a JSON body', { allow: 'POST' });
    }
    readBody(req, res).then(
      (text) => {
        if (text === undefined) return;
        let request: unknown;
        try {
          request = JSON.parse(text);
        } catch (e) {
          return problem(res, 400, `the body is not JSON: ${(e as Error).message}`);
        }
        const answer = impl.assemble(request);
        send(res, isErrorAnswer(answer) ? 422 : 200, answer);
      },
      () => res.destroy(),
    );
  });
  server.keepAliveTimeout = 30_000;
  return server;
}

/** Listen and resolve with the base URL (port 0 picks a free one). */
export function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const a = server.address();
      const at = typeof a === 'object' && a ? a : { address: host, port };
      const h = at.address.includes(':') ? `[${at.address}]` : at.address;
      resolve(`http://${h}:${at.port}`);
    });
  });
}
