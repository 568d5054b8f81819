/**
 * A running shadow: the proxy in front of the upstream, the sampler, the
 * judge's queue, the tally and its metrics server. `stop` ends it in order:
 * no new connection, the exchanges in flight finished (or cut at the
 * deadline), the judge drained within what is left of it, and the
 * replay-shaped report of what was judged.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { listen } from '../../adapters/http-server.js';
import type { Manifest, Report } from '../../protocol/types.js';
import httpTransport from '../../running/transports/http.js';
import { JudgeQueue } from './judge-queue.js';
import { createShadowProxy } from './proxy.js';
import type { ClientLimits } from './proxy.js';
import type { Kept } from './records.js';
import { sampler } from './sampler.js';
import { statusPage } from './status-page.js';
import { ShadowTally } from './tally.js';

export interface Address {
  host: string;
  port: number;
}

export interface ShadowOptions {
  upstream: string;
  listen: Address;
  metrics?: Address;
  manifest: Manifest;
  /** The fraction of POST /assemble exchanges judged, 0..1. */
  sample: number;
  random?: () => number;
  maxBodyBytes: number;
  upstreamTimeoutMs: number;
  /** Samples on their way to the judge at most; past that they are dropped. */
  queueCapacity: number;
  /** Bytes of the samples on their way to the judge at most (requests and answers); past that they are dropped. */
  queueBytes?: number;
  /** The proxy's bounds on its clients (SPEC SHD-4); the defaults where absent. */
  clients?: Partial<ClientLimits>;
  records?: { dir: string; perKind: number };
  baseline?: string;
  /** The likely cause is worked out again at most this often (ms). */
  diagnoseEveryMs?: number;
  onJudgeError?: (message: string) => void;
}

export interface RunningShadow {
  url: string;
  metricsUrl?: string;
  tally: ShadowTally;
  /** Stop within `ms`: whether the judge drained, and the report (rerun: the command that replays a kept record). */
  stop(o: { ms: number; rerun?: (kept: Kept) => string }): Promise<{ report: Report; drained: boolean }>;
}

function closeServer(server: Server, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), ms);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export async function startShadow(o: ShadowOptions): Promise<RunningShadow> {
  let queue: JudgeQueue | undefined;
  const tally = new ShadowTally({
    manifest: o.manifest,
    ...(o.baseline !== undefined ? { baseline: o.baseline } : {}),
    queueDepth: () => queue?.depth ?? 0,
    queueBytes: () => queue?.depthBytes ?? 0,
  });
  queue = new JudgeQueue({
    manifest: o.manifest,
    capacity: o.queueCapacity,
    ...(o.queueBytes !== undefined ? { capacityBytes: o.queueBytes } : {}),
    diagnoseEveryMs: o.diagnoseEveryMs ?? 5000,
    ...(o.records ? { records: o.records } : {}),
    onJudged: (m) => tally.judged(m, performance.now() - m.at),
    onCauses: (c) => tally.setCauses(c),
    onJudgeError: (message) => {
      tally.judgeError();
      o.onJudgeError?.(message);
    },
  });
  const q = queue;
  const take = sampler(o.sample, o.random);
  let seq = 0;
  const proxy = createShadowProxy({
    upstream: o.upstream,
    upstreamTimeoutMs: o.upstreamTimeoutMs,
    maxBodyBytes: o.maxBodyBytes,
    ...(o.clients ? { clients: o.clients } : {}),
    events: {
      request: () => tally.request(),
      sample: () => {
        if (!take()) return false;
        tally.sample();
        // A full queue now: dropped before a byte is copied.
        if (!q.hasRoom) {
          tally.drop();
          return false;
        }
        return true;
      },
      oversize: () => tally.tooLarge(),
      upstreamFailed: (kind) => tally.upstreamFailed(kind),
      exchange: (e) => {
        // The proxy made each buffer for this hand-over alone: moved to the judge, not copied.
        const sample = { kind: 'bytes', seq: ++seq, at: e.at, request: e.request, status: e.status, answer: e.answer } as const;
        if (!q.offer(sample, [e.request.buffer as ArrayBuffer, e.answer.buffer as ArrayBuffer])) tally.drop();
      },
    },
  });
  let metricsServer: Server | undefined;
  let metricsUrl: string | undefined;
  let url: string;
  try {
    url = await listen(proxy, o.listen.port, o.listen.host);
    if (o.metrics) {
      metricsServer = createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.writeHead(405, { allow: 'GET, HEAD' }).end();
          return;
        }
        if (path === '/metrics') {
          tally.metrics.registry.metrics().then(
            (text) => res.writeHead(200, { 'content-type': tally.metrics.registry.contentType }).end(text),
            (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(e.message),
          );
        } else if (path === '/status' || path === '/') {
          res
            .writeHead(200, {
              'content-type': 'text/html; charset=utf-8',
              'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
            })
            .end(statusPage(tally, { upstream: o.upstream, sample: o.sample }));
        } else res.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics or /status\n');
      });
      metricsUrl = await listen(metricsServer, o.metrics.port, o.metrics.host);
    }
  } catch (e) {
    proxy.close();
    metricsServer?.close();
    await q.close();
    throw e;
  }
  return {
    url,
    ...(metricsUrl !== undefined ? { metricsUrl } : {}),
    tally,
    async stop({ ms, rerun }) {
      const t0 = performance.now();
      // No new connection; the exchanges in flight finish, or are cut at the deadline.
      await closeServer(proxy, ms / 4);
      const drained = await q.drain(Math.max(0, ms - (performance.now() - t0)));
      await q.close();
      if (metricsServer) await closeServer(metricsServer, 0);
      return {
        report: tally.report({ label: `shadow of ${o.upstream}`, ...(rerun ? { rerun } : {}), adapter: httpTransport.name, target: o.upstream }),
        drained,
      };
    },
  };
}
