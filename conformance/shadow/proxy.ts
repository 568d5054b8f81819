/**
 * The shadow's HTTP proxy: every request goes to the upstream unchanged
 * (method, path, headers, body), and the upstream's answer comes back as it
 * came (status, reason phrase, headers, body), streamed, never held for
 * judging and never replaced by the reference's. The one answer of the
 * proxy's own is for an upstream that gave none: 502 when it could not be
 * reached or broke off before its headers, 504 when it was silent for the
 * stated timeout; an answer broken off after its headers is broken off to the
 * client too. No retries.
 *
 * A sampled `POST /assemble` has its request and answer bytes copied (up to
 * the body limit) and handed over once the answer is complete: judging is
 * someone else's, after the fact.
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** One sampled exchange, complete, with the bytes as they went through. */
export interface Exchange {
  request: Buffer;
  status: number;
  answer: Buffer;
  /** performance.now() when the answer was complete. */
  at: number;
}

export type UpstreamFailure = 'refused' | 'timeout' | 'reset' | 'other';

export interface ProxyEvents {
  /** Every request the proxy accepted. */
  request?(path: string): void;
  /** A sampled request or its answer was over the body limit: passed through unjudged. */
  oversize?(): void;
  /** The upstream gave no complete answer. */
  upstreamFailed?(kind: UpstreamFailure): void;
  /** Whether to keep this `POST /assemble` for judging (asked before it is forwarded). */
  sample?(): boolean;
  exchange?(e: Exchange): void;
}

export interface ProxyOptions {
  /** The upstream's base URL: `http://host:port`, maybe with a path prefix. */
  upstream: string;
  /** Silence from the upstream (no bytes) longer than this ends the exchange: 504, or a cut answer. */
  upstreamTimeoutMs: number;
  /** A sampled request or answer longer than this is passed through and not judged. */
  maxBodyBytes: number;
  events: ProxyEvents;
}

/** The bytes of one side of a sampled exchange, up to the limit. */
class Capture {
  private chunks: Buffer[] = [];
  private length = 0;
  over = false;
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    if (this.over) return;
    this.length += chunk.length;
    if (this.length > this.max) {
      this.over = true;
      this.chunks = [];
    } else this.chunks.push(chunk);
  }
  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
  }
}

const pathOf = (url: string): string => url.split('?')[0]!.replace(/\/+$/, '') || '/';

function failureKind(e: NodeJS.ErrnoException): UpstreamFailure {
  if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EHOSTUNREACH') return 'refused';
  if (e.code === 'ECONNRESET' || e.code === 'EPIPE' || e.message === 'socket hang up') return 'reset';
  return 'other';
}

/** The proxy's own answer: plain text, so no client reads it as an assembler's answer. */
function ownAnswer(res: ServerResponse, status: 502 | 504, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), 'x-ctxconform-shadow': 'upstream-failed' });
  res.end(text);
}

export function createShadowProxy(o: ProxyOptions): Server {
  const base = new URL(o.upstream);
  if (base.protocol !== 'http:') throw new Error(`the upstream must be an http:// URL, not ${o.upstream}`);
  const prefix = base.pathname.replace(/\/+$/, '');
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const ev = o.events;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    ev.request?.(url);
    const sampled = req.method === 'POST' && pathOf(url) === '/assemble' && (ev.sample?.() ?? false);
    const sent = sampled ? new Capture(o.maxBodyBytes) : undefined;
    const got = sampled ? new Capture(o.maxBodyBytes) : undefined;
    let failed = false;
    /** The client went away first: what the upstream does then is no failure of the upstream. */
    let clientGone = false;
    /** The upstream's answer came to its end. */
    let answered = false;
    let status = 0;
    /** The client's request came to its end. */
    let requested = false;
    let handed = false;
    /** A sampled exchange is handed over once both its request and its answer are whole; one over the limit is counted instead. */
    const handOver = (): void => {
      if (handed || !sent || !got || failed) return;
      if (sent.over || got.over) {
        handed = true;
        ev.oversize?.();
      } else if (requested && answered) {
        handed = true;
        ev.exchange?.({ request: sent.bytes(), status, answer: got.bytes(), at: performance.now() });
      }
    };
    const fail = (kind: UpstreamFailure, status: 502 | 504, text: string): void => {
      if (failed) return;
      failed = true;
      ev.upstreamFailed?.(kind);
      ownAnswer(res, status, text);
    };

    const up = httpRequest({
      agent,
      host: base.hostname,
      port: base.port || 80,
      method: req.method,
      path: prefix + url,
      // The headers as they came, in their order and spelling (message.rawHeaders).
      headers: req.rawHeaders as unknown as Record<string, string>,
      setHost: false,
    });
    up.setTimeout(o.upstreamTimeoutMs, () => {
      fail('timeout', 504, `ctxconform shadow: no bytes from the upstream ${o.upstream} for ${o.upstreamTimeoutMs} ms\n`);
      up.destroy();
    });
    up.on('error', (e: NodeJS.ErrnoException) => {
      // The upstream answered and closed before reading the whole request (a 413, say): the answer stands as it came.
      if (answered) return;
      if (!clientGone) fail(failureKind(e), 502, `ctxconform shadow: the upstream ${o.upstream} gave no answer: ${e.code ?? e.message}\n`);
    });
    up.on('response', (answer: IncomingMessage) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.on('data', (chunk: Buffer) => {
        got?.add(chunk);
        if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.on('end', () => {
        answered = true;
        res.end();
        status = answer.statusCode ?? 0;
        handOver();
      });
      answer.on('close', () => {
        if (answer.complete || failed || clientGone) return;
        failed = true;
        ev.upstreamFailed?.('reset');
        res.destroy();
      });
    });

    req.on('data', (chunk: Buffer) => {
      sent?.add(chunk);
      if (up.destroyed) return;
      if (!up.write(chunk)) {
        req.pause();
        up.once('drain', () => req.resume());
      }
    });
    req.on('end', () => {
      requested = true;
      up.end();
      handOver();
    });
    // A request cut off (its upstream answered early and closed, say) is not judged; over the limit, it is counted.
    req.on('close', () => {
      if (!requested && sent?.over) handOver();
    });
    // The client went away: so does its exchange with the upstream.
    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      up.destroy();
    });
  });
  server.on('close', () => agent.destroy());
  return server;
}
