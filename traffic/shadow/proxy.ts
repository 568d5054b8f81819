/**
 * The shadow's HTTP proxy: every request goes to the upstream with its
 * method, path, end-to-end headers and body, and the upstream's answer comes
 * back as it came (status, reason phrase, end-to-end headers in their order
 * and spelling, body), streamed, never held for judging and never replaced by
 * the reference's. What the proxy changes is each hop's own (SPEC SHD-2): the
 * hop-by-hop headers (RFC 9110 section 7.6.1, hop-by-hop.ts) and the framing
 * of its connection to the client. The one answer of its own is for an
 * upstream that gave none it can pass on: 502 when it could not be reached,
 * broke off before its headers or sent an answer no HTTP peer may pass on
 * (a bad status or header byte, a 101 it has no tunnel for), 504 when it was
 * silent for the stated timeout; an answer broken off after its headers is
 * broken off to the client too. A request lost to a pooled connection the
 * upstream had closed is sent once more on a new one, when sending it twice
 * can do no harm: a method RFC 9110 (section 9.2.2) calls idempotent, or the
 * assemble endpoint, an assembly being a pure function of its request (REQ-2).
 * Any other request (a `POST /charge`) is never sent twice: its loss is a 502.
 *
 * A sampled `POST /assemble` has its request and answer bytes copied (up to
 * the body limit) and handed over once the answer is complete: judging is
 * someone else's, after the fact.
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import { PROXY_ONLY, endToEnd } from './hop-by-hop.js';

/** What the proxy never forwards as it came: this hop's credentials, and the body's framing, which it sets itself. */
const FRAMING: ReadonlySet<string> = new Set([...PROXY_ONLY, 'content-length', 'transfer-encoding']);

/** One sampled exchange, complete, with the bytes as they went through. */
export interface Exchange {
  request: Buffer;
  status: number;
  answer: Buffer;
  /** performance.now() when the answer was complete. */
  at: number;
}

export type UpstreamFailure = 'refused' | 'timeout' | 'reset' | 'malformed' | 'other';

export interface ProxyEvents {
  /** Every request the proxy accepted. */
  request?(path: string): void;
  /** A sampled request or its answer was over the body limit: passed through unjudged. */
  oversize?(): void;
  /** The upstream gave no complete answer. */
  upstreamFailed?(kind: UpstreamFailure): void;
  /** Whether to keep this `POST /assemble` for judging (asked before it is forwarded). */
  sample?(): boolean;
  /** A request refused before anything went upstream (400, 431, 501: refusal()). */
  refused?(status: number): void;
  exchange?(e: Exchange): void;
}

/** The proxy's guards against its clients (SPEC SHD-3): each a bound a slow or idle client cannot pass. */
export interface ClientLimits {
  /** A request's headers must arrive within this (408, then closed). */
  headersTimeoutMs: number;
  /** A whole request must arrive within this (408, then closed). */
  requestTimeoutMs: number;
  /** A kept-alive connection idle this long is closed. */
  idleTimeoutMs: number;
  /** Connections open at once at most; one past it is closed as it comes. */
  maxConnections: number;
}

export const DEFAULT_CLIENT_LIMITS: ClientLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, idleTimeoutMs: 5_000, maxConnections: 1024 };

export interface ProxyOptions {
  /** The upstream's base URL: `http://host:port`, maybe with a path prefix. */
  upstream: string;
  /** Silence from the upstream (no bytes) longer than this ends the exchange: 504, or a cut answer. */
  upstreamTimeoutMs: number;
  /** A sampled request or answer longer than this is passed through and not judged; nor is a longer request sent again. */
  maxBodyBytes: number;
  clients?: Partial<ClientLimits>;
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
  /**
   * The bytes in a buffer of their own, exactly as long: it can be moved to the judge's thread
   * (transferred, not cloned), where a chunk of a socket's read may be a view of a larger one.
   */
  bytes(): Buffer {
    const out = Buffer.from(new ArrayBuffer(this.length));
    let at = 0;
    for (const c of this.chunks) {
      c.copy(out, at);
      at += c.length;
    }
    return out;
  }
}

const pathOf = (url: string): string => url.split('?')[0]!.replace(/\/+$/, '') || '/';

function failureKind(e: NodeJS.ErrnoException): UpstreamFailure {
  if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'EHOSTUNREACH') return 'refused';
  if (e.code === 'ECONNRESET' || e.code === 'EPIPE' || e.message === 'socket hang up') return 'reset';
  // llhttp's refusals of what the upstream sent: two lengths, a bad status line, a bad header byte.
  if (e.code?.startsWith('HPE_')) return 'malformed';
  return 'other';
}

/** Headers read from a client at most (Node's own cap): a request with more is refused, never forwarded with some dropped. */
const MAX_HEADERS = 2000;

/**
 * Why a request is refused before anything goes upstream, as nginx and Envoy refuse it: a
 * framing the proxy cannot pass on as it read it (a transfer coding other than chunked, a
 * length beside a coding, more headers than it reads, so one it did not see may frame the
 * body) or a target it cannot tell (two Host headers, RFC 9112 section 3.2). Undefined when
 * the request can go.
 */
export function refusal(req: IncomingMessage): { status: 400 | 431 | 501; text: string } | undefined {
  if (req.rawHeaders.length / 2 >= MAX_HEADERS)
    return { status: 431, text: `ctxconform shadow: more than ${MAX_HEADERS - 1} header fields: the proxy forwards none it has not read\n` };
  const hosts = req.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'host').length;
  if (hosts > 1) return { status: 400, text: 'ctxconform shadow: two Host header fields (RFC 9112 section 3.2): which one is the target?\n' };
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.trim().toLowerCase() !== 'chunked')
    return { status: 501, text: `ctxconform shadow: the transfer coding ${JSON.stringify(te)} is not one the proxy passes on (chunked alone)\n` };
  if (te !== undefined && req.headers['content-length'] !== undefined)
    return { status: 400, text: 'ctxconform shadow: both Content-Length and Transfer-Encoding (RFC 9112 section 6.3): the framing is not one\n' };
  return undefined;
}

/**
 * The framing the proxy sets itself on what it forwards (never a client's header, which a
 * Connection header could take away): the length it read, or chunked; and a Host for an
 * HTTP/1.0 request that sent none, as an HTTP/1.1 upstream needs one.
 */
function ownFraming(req: IncomingMessage, upstreamHost: string): string[] {
  const out: string[] = [];
  const length = req.headers['content-length'];
  if (length !== undefined) out.push('Content-Length', length);
  else if (req.headers['transfer-encoding'] !== undefined) out.push('Transfer-Encoding', 'chunked');
  if (!req.rawHeaders.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')) out.push('Host', upstreamHost);
  return out;
}

/** RFC 9110 section 9.2.2: the methods whose requests a proxy may send again, the same effect however often they arrive. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** Whether a request may be sent once more when its pooled connection was closed under it: idempotent, or the pure assemble endpoint (REQ-2). */
const mayResend = (method: string | undefined, path: string): boolean => IDEMPOTENT.has(method ?? '') || (method === 'POST' && path === '/assemble');

/** A request lost because the pooled connection it went on was closed under it: nothing came back, so it can go again. */
const lostToReuse = (up: ClientRequest, e: NodeJS.ErrnoException): boolean => up.reusedSocket && failureKind(e) === 'reset';

/** The proxy's own answer: plain text, so no client reads it as an assembler's answer. */
/** A request the proxy will not forward, answered and its connection closed: what follows on it cannot be told apart. */
function refuse(res: ServerResponse, status: 400 | 431 | 501, text: string): void {
  const reason = { 400: 'Bad Request', 431: 'Request Header Fields Too Large', 501: 'Not Implemented' }[status];
  res.writeHead(status, reason, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    connection: 'close',
    'x-ctxconform-shadow': 'refused',
  });
  res.end(text);
}

function ownAnswer(res: ServerResponse, status: 502 | 504, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  try {
    // Its own reason phrase: the upstream's, refused, may still be set on the answer.
    res.writeHead(status, status === 502 ? 'Bad Gateway' : 'Gateway Timeout', {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'x-ctxconform-shadow': 'upstream-failed',
    });
    res.end(text);
  } catch {
    res.destroy();
  }
}

/** Each chunk of `source` kept by `keep`, then written to `target()` unless it is destroyed, `source` paused while the target's buffer is full. */
function relay(source: Readable, target: () => Writable, keep: (chunk: Buffer) => void): void {
  source.on('data', (chunk: Buffer) => {
    keep(chunk);
    const to = target();
    if (to.destroyed) return;
    if (!to.write(chunk)) {
      source.pause();
      to.once('drain', () => source.resume());
    }
  });
}

export function createShadowProxy(o: ProxyOptions): Server {
  const base = new URL(o.upstream);
  if (base.protocol !== 'http:') throw new Error(`the upstream must be an http:// URL, not ${o.upstream}`);
  const prefix = base.pathname.replace(/\/+$/, '');
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const ev = o.events;
  const limits = { ...DEFAULT_CLIENT_LIMITS, ...o.clients };

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
      // How often the header and request timeouts are looked at: Node's 30 s would let a slow client hold a socket that long.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, limits.headersTimeoutMs / 4)),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      // The Date of an answer is the upstream's, not a second one of the proxy's.
      res.sendDate = false;
      const url = req.url ?? '/';
      ev.request?.(url);
      const sampled = req.method === 'POST' && pathOf(url) === '/assemble' && (ev.sample?.() ?? false);
      const sent = sampled ? new Capture(o.maxBodyBytes) : undefined;
      const got = sampled ? new Capture(o.maxBodyBytes) : undefined;
      /** The request's bytes, kept until an answer starts, to send it once more on a new connection (up to the body limit); none for a request that may not go twice. */
      let again: Capture | undefined = mayResend(req.method, pathOf(url)) ? new Capture(o.maxBodyBytes) : undefined;
      let failed = false;
      /** The client went away first: what the upstream does then is no failure of the upstream. */
      let clientGone = false;
      /** The upstream's answer came to its end. */
      let answered = false;
      let responded = false;
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
      const fail = (kind: UpstreamFailure, code: 502 | 504, text: string): void => {
        if (failed) return;
        failed = true;
        ev.upstreamFailed?.(kind);
        ownAnswer(res, code, text);
      };
      const refused = refusal(req);
      if (refused) {
        ev.refused?.(refused.status);
        refuse(res, refused.status, refused.text);
        req.resume();
        return;
      }
      // The body's framing is the proxy's own: the client's length and coding never go as they came (a Connection header may name them).
      const headers = [...endToEnd(req.rawHeaders, FRAMING), ...ownFraming(req, base.host)];
      /** The request to the upstream now: the first, or the one sent again on a new connection. */
      let up: ClientRequest;

      const forward = (fresh: boolean): ClientRequest => {
        const attempt = httpRequest({
          agent: fresh ? false : agent,
          host: base.hostname,
          port: base.port || 80,
          method: req.method,
          path: prefix + url,
          // The end-to-end headers as they came, in their order and spelling (message.rawHeaders).
          headers: headers as unknown as Record<string, string>,
          setHost: false,
        });
        // Node's client reads 1,023 answer header fields unless told: the same cap as toward clients, then a 502 past it.
        attempt.maxHeadersCount = MAX_HEADERS;
        attempt.setTimeout(o.upstreamTimeoutMs, () => {
          // The timer of a request already sent again is not this exchange's any more.
          if (attempt !== up) return;
          fail('timeout', 504, `ctxconform shadow: no bytes from the upstream ${o.upstream} for ${o.upstreamTimeoutMs} ms\n`);
          attempt.destroy();
        });
        attempt.on('error', (e: NodeJS.ErrnoException) => {
          // The upstream answered and closed before reading the whole request (a 413, say): the answer stands as it came.
          if (answered || responded || clientGone) return;
          if (!fresh && requested && again && !again.over && lostToReuse(attempt, e)) {
            up = forward(true);
            up.end(again.bytes());
            return;
          }
          fail(failureKind(e), 502, `ctxconform shadow: the upstream ${o.upstream} gave no answer it can pass on: ${e.code ?? e.message}\n`);
        });
        // A 101 has no tunnel here (SPEC SHD-2): the Upgrade header is not forwarded, so an upstream that switches anyway gets its socket closed.
        attempt.on('upgrade', (answer: IncomingMessage, socket) => {
          socket.destroy();
          fail(
            'malformed',
            502,
            `ctxconform shadow: the upstream ${o.upstream} answered ${answer.statusCode} Switching Protocols; the shadow does not tunnel upgrades\n`,
          );
        });
        attempt.on('response', (answer: IncomingMessage) => receive(attempt, answer));
        return attempt;
      };

      const receive = (from: ClientRequest, answer: IncomingMessage): void => {
        responded = true;
        again = undefined;
        if (answer.rawHeaders.length / 2 >= MAX_HEADERS) {
          // Node reads no more header fields than this: one it dropped may be the one that matters, so none is passed on.
          answer.destroy();
          from.destroy();
          fail('malformed', 502, `ctxconform shadow: the upstream ${o.upstream} sent more than ${MAX_HEADERS - 1} header fields\n`);
          return;
        }
        try {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
        } catch (e) {
          // A status, reason phrase or header no HTTP peer may send on (a control byte, status 000): a 502 that says which.
          const why = e as NodeJS.ErrnoException;
          answer.destroy();
          from.destroy();
          fail('malformed', 502, `ctxconform shadow: the upstream ${o.upstream} sent an answer that cannot be passed on: ${why.code ?? ''} ${why.message}\n`);
          return;
        }
        relay(
          answer,
          () => res,
          (chunk) => got?.add(chunk),
        );
        answer.on('end', () => {
          answered = true;
          res.end();
          status = answer.statusCode ?? 0;
          handOver();
        });
        answer.on('error', () => {});
        answer.on('close', () => {
          if (answer.complete || failed || clientGone) return;
          failed = true;
          ev.upstreamFailed?.('reset');
          res.destroy();
        });
      };

      up = forward(false);
      // Read at each chunk: a request sent again on a new connection takes the rest of the body.
      relay(
        req,
        () => up,
        (chunk) => {
          sent?.add(chunk);
          again?.add(chunk);
        },
      );
      req.on('end', () => {
        requested = true;
        up.end();
        handOver();
        // The answer's head within --upstream-timeout of the whole request: a drip of header bytes, or a 102 every few
        // hundred milliseconds, resets the socket's idle timer each time and would hold the client as long as it likes.
        const head = setTimeout(() => {
          if (responded || failed || clientGone) return;
          fail('timeout', 504, `ctxconform shadow: no answer from the upstream ${o.upstream} within ${o.upstreamTimeoutMs} ms of the request\n`);
          up.destroy();
        }, o.upstreamTimeoutMs);
        head.unref();
        res.on('close', () => clearTimeout(head));
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
    },
  );
  server.maxConnections = limits.maxConnections;
  server.on('close', () => agent.destroy());
  // Set, not assumed: refusal() and the answers' check read the cap as Node applies it.
  server.maxHeadersCount = MAX_HEADERS;
  return server;
}
