/**
 * A JSON-over-HTTP client for one memory service: keep-alive connections,
 * a deadline per call, and every transport failure turned into an Outcome
 * (a misbehaving service must never throw into the runner).
 */
import { Agent } from 'undici';
import type { Outcome } from '../../protocol/types.js';

/** Larger answers are a protocol failure, not a reason to exhaust memory. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** What one call did, kept for the report: the request sent and what came back. */
export interface CallRecord {
  op: string;
  method: string;
  path: string;
  request?: unknown;
  status?: number;
  response?: unknown;
  /** The raw body when it was not JSON. */
  raw?: string;
}

export type CallResult = { ok: true; status: number; body: unknown; record: CallRecord } | { ok: false; outcome: Outcome; record: CallRecord };

export class JsonClient {
  /** The service's origin and the path under it that the contract's paths follow (`''` at the root). */
  private readonly origin: string;
  private readonly prefix: string;
  private readonly agent: Agent;

  constructor(
    url: string,
    private readonly apiKey: string | undefined,
    connectTimeoutMs: number,
  ) {
    // Parsed once: undici's request(url) would parse the whole URL again at every call. A URL that does not
    // parse is passed on as the origin, which undici refuses at the first call (a crash outcome).
    const base = url.replace(/\/+$/, '');
    const parsed = URL.canParse(base) ? new URL(base) : undefined;
    this.origin = parsed?.origin ?? base;
    this.prefix = parsed?.pathname.replace(/\/+$/, '') ?? '';
    this.agent = new Agent({
      keepAliveTimeout: 10_000,
      connect: { timeout: connectTimeoutMs },
      maxResponseSize: MAX_RESPONSE_BYTES,
    });
  }

  /** One call, answered by the deadline (epoch ms) or turned into a timeout Outcome. */
  async call(op: string, c: Call, deadline: number): Promise<CallResult> {
    const record: CallRecord = { op, method: c.method, path: c.path, ...(c.body !== undefined ? { request: c.body } : {}) };
    const left = deadline - Date.now();
    if (left <= 0) return { ok: false, record, outcome: { kind: 'timeout', message: `${op}: no time left before the deadline` } };
    const headers: Record<string, string> = { accept: 'application/json' };
    if (c.body !== undefined) headers['content-type'] = 'application/json';
    // The contract declares no securitySchemes; a bearer token is the common reading (docs/memory-api.md).
    if (this.apiKey !== undefined) headers.authorization = `Bearer ${this.apiKey}`;
    // The deadline's timer is cleared once the call is over: AbortSignal.timeout's would stay armed and fire
    // later for every call of a run (thousands in a contract run), each building a TimeoutError nobody reads.
    const deadlineReached = new AbortController();
    const timer = setTimeout(() => deadlineReached.abort(), left);
    const signal = deadlineReached.signal;
    let text: string;
    let status: number;
    try {
      const res = await this.agent.request({
        origin: this.origin,
        path: `${this.prefix}${c.path}`,
        method: c.method,
        headers,
        body: c.body === undefined ? null : JSON.stringify(c.body),
        signal,
        headersTimeout: left,
        bodyTimeout: left,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (e) {
      return { ok: false, record, outcome: transportOutcome(op, e, signal.aborted, left) };
    } finally {
      clearTimeout(timer);
    }
    record.status = status;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      record.raw = text.slice(0, 2000);
      return { ok: false, record, outcome: { kind: 'protocol', message: `${op}: HTTP ${status} with a body that is not JSON`, raw: record.raw } };
    }
    record.response = body;
    if (status >= 200 && status < 300) return { ok: true, status, body, record };
    return { ok: false, record, outcome: errorOutcome(op, status, body) };
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

function transportOutcome(op: string, e: unknown, aborted: boolean, ms: number): Outcome {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
  const what = e instanceof Error ? e.message : String(e);
  if (aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { kind: 'timeout', message: `${op}: no answer within ${ms} ms` };
  }
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return { kind: 'protocol', message: `${op}: answer larger than ${MAX_RESPONSE_BYTES} bytes` };
  return { kind: 'crash', message: `${op}: connection failed (${code || 'error'}: ${what})` };
}

/** A non-2xx answer: a MemoryApiError body is the service's error answer; anything else is a protocol failure. */
function errorOutcome(op: string, status: number, body: unknown): Outcome {
  const err = typeof body === 'object' && body !== null ? ((body as { error?: unknown }).error ?? body) : undefined;
  if (typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string') {
    const { code, message } = err as { code: string; message?: unknown };
    return { kind: 'error', code, message: `${op}: HTTP ${status}: ${String(message ?? '')}`, value: body };
  }
  return { kind: 'protocol', message: `${op}: HTTP ${status}`, raw: JSON.stringify(body).slice(0, 2000) };
}
