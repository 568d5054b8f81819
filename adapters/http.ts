/**
 * http adapter (SPEC PROTO-4): `POST {base}/assemble` answers 200 with a
 * result or 422 with an error answer; `GET {base}/describe` the manifest.
 * Every transport failure becomes an Outcome with a message a vendor can act on.
 */
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import type { Implementation, Manifest, Outcome } from '../protocol/types.js';
import { quote } from './outcome.js';
import { httpAnswerOutcome } from './http-answer.js';
import { encodeRequest } from './wire.js';

export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Closing: how long requests still in flight may take before their connections are cut. */
export const CLOSE_GRACE_MS = 1000;

/** The whole answer did not arrive within the request's deadline (its headers did, or some of its body). */
class DeadlineError extends Error {
  override name = 'TimeoutError';
  readonly code = 'CTXCONFORM_DEADLINE';
}

export class HttpStartError extends Error {}

export interface HttpOptions {
  base: string;
  concurrency?: number;
  manifest?: Manifest;
  timeoutMs?: number;
}

type Body = { kind: 'body'; status: number; text: string } | { kind: 'too-large'; status: number };

/** A readable sentence for what undici or the socket reported. */
export function describeNetworkError(e: unknown, url: string, timeoutMs: number): Extract<Outcome, { kind: 'timeout' | 'crash' }> {
  const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'CTXCONFORM_DEADLINE') return { kind: 'timeout', message: `the answer from ${url} was not complete within ${timeoutMs} ms` };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { kind: 'timeout', message: `no answer from ${url} within ${timeoutMs} ms` };
  }
  if (code === 'ECONNREFUSED') return { kind: 'crash', message: `connection refused by ${url}: is the server running?` };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return { kind: 'crash', message: `connection to ${url} was reset or closed before the answer was complete (${code})` };
  }
  return { kind: 'crash', message: `request to ${url} failed: ${code ? `${code} ` : ''}${err.message ?? String(e)}` };
}

export class HttpImplementation implements Implementation {
  private readonly agent: Agent;
  private readonly base: string;
  private manifest: Manifest | undefined;

  constructor(private readonly o: HttpOptions) {
    this.base = o.base.replace(/\/+$/, '');
    this.manifest = o.manifest;
    this.agent = new Agent({ connections: Math.max(1, o.concurrency ?? 4), pipelining: 1, keepAliveTimeout: 30_000 });
  }

  async open(): Promise<Manifest> {
    const url = `${this.base}/describe`;
    const timeoutMs = this.o.timeoutMs ?? 5000;
    if (this.manifest) {
      // No describe to read, but a server that is not there is a start failure (exit 2), not 300 crashes.
      try {
        await this.call('GET', url, undefined, timeoutMs);
      } catch (e) {
        const o = describeNetworkError(e, url, timeoutMs);
        if (o.kind === 'crash') throw new HttpStartError(o.message);
      }
      return this.manifest;
    }
    let r: Body;
    try {
      r = await this.call('GET', url, undefined, timeoutMs);
    } catch (e) {
      throw new HttpStartError(describeNetworkError(e, url, timeoutMs).message);
    }
    if (r.kind !== 'body') throw new HttpStartError(`GET ${url}: answer larger than ${MAX_BODY_BYTES} bytes`);
    if (r.status !== 200) throw new HttpStartError(`GET ${url} answered HTTP ${r.status}: ${quote(r.text)}; give --manifest if the server has no /describe`);
    try {
      this.manifest = JSON.parse(r.text) as Manifest;
    } catch {
      throw new HttpStartError(`GET ${url} did not answer JSON: ${quote(r.text)}`);
    }
    return this.manifest;
  }

  async describe(): Promise<Manifest> {
    return this.manifest ?? (await this.open());
  }

  async assemble(req: unknown, { timeoutMs }: { timeoutMs: number }): Promise<Outcome> {
    const url = `${this.base}/assemble`;
    const wire = encodeRequest(req);
    if (!wire.ok) return { kind: 'unsendable', message: wire.reason };
    let r: Body;
    try {
      r = await this.call('POST', url, wire.json, timeoutMs);
    } catch (e) {
      return describeNetworkError(e, url, timeoutMs);
    }
    if (r.kind === 'too-large') return { kind: 'protocol', message: `HTTP ${r.status} answer larger than ${MAX_BODY_BYTES} bytes; refused unread` };
    return httpAnswerOutcome(r.status, r.text);
  }

  async close(): Promise<void> {
    const closed = this.agent.close().then(() => true);
    if (!(await Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), CLOSE_GRACE_MS).unref())]))) await this.agent.destroy();
  }

  /**
   * One exchange against one deadline, `timeoutMs` from the send to the last
   * byte of the body. undici's timers bound the wait for the headers; its
   * body timer restarts on every chunk (a byte every 900 ms would never time
   * out), so the body gets what is left of the deadline, on a timer of its own
   * that cuts the connection.
   */
  private async call(method: 'GET' | 'POST', url: string, body: string | undefined, timeoutMs: number): Promise<Body> {
    const t0 = performance.now();
    const res: Dispatcher.ResponseData = await request(url, {
      method,
      dispatcher: this.agent,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(body !== undefined ? { body, headers: { 'content-type': 'application/json' } } : {}),
    });
    const length = Number(res.headers['content-length'] ?? NaN);
    if (length > MAX_BODY_BYTES) {
      res.body.destroy();
      return { kind: 'too-large', status: res.statusCode };
    }
    const left = timeoutMs - (performance.now() - t0);
    let late = false;
    const deadline = setTimeout(
      () => {
        late = true;
        res.body.destroy(new DeadlineError());
      },
      Math.max(0, left),
    );
    try {
      return await readBody(res, length);
    } catch (e) {
      throw late ? new DeadlineError() : e;
    } finally {
      clearTimeout(deadline);
    }
  }
}

async function readBody(res: Dispatcher.ResponseData, length: number): Promise<Body> {
  // A declared length within the cap can be read in one go; otherwise count while streaming.
  if (Number.isFinite(length)) return { kind: 'body', status: res.statusCode, text: await res.body.text() };
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    total += (chunk as Buffer).length;
    if (total > MAX_BODY_BYTES) {
      res.body.destroy();
      return { kind: 'too-large', status: res.statusCode };
    }
    chunks.push(chunk as Buffer);
  }
  return { kind: 'body', status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
}

export async function openHttp(o: HttpOptions): Promise<{ impl: HttpImplementation; manifest: Manifest }> {
  const impl = new HttpImplementation(o);
  try {
    const manifest = await impl.open();
    return { impl, manifest };
  } catch (e) {
    await impl.close();
    throw e;
  }
}
