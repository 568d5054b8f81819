/**
 * `ctxconform shadow --upstream URL`: a proxy in front of a vendor's
 * assembler served over the http transport, judging a sample of the live
 * traffic off the request path (docs/shadow.md). It runs until SIGTERM or
 * SIGINT, then stops accepting, drains the judge within 2 s, writes the
 * reports and exits with the verdict: 0 nothing judged disagreed (or only
 * what the baseline knows), 1 a disagreement, or nothing judged, 2 a usage
 * error or an upstream whose manifest cannot be read.
 */
import { parseArgs } from 'node:util';
import { openHttp } from '../adapters/http.js';
import { readManifest } from '../running/open.js';
import { loadFormats } from '../report/registry.js';
import { err, out } from './output.js';
import { reportOptions, reportOptionsHelp, checkReportPaths } from './report-options.js';
import { shellQuote } from '../running/console.js';
import { startShadow } from '../traffic/shadow/shadow.js';
import httpTransport from '../running/transports/http.js';
import type { Address } from '../traffic/shadow/shadow.js';
import { DEFAULT_CLIENT_LIMITS } from '../traffic/shadow/proxy.js';
import type { Manifest } from '../protocol/types.js';
import { checkBaseline, finish } from './drive.js';
import { rerunCommand } from './implementation.js';
import { EXIT_OK, UsageError, intOption } from './usage.js';

export const usage = (): string => 'ctxconform shadow --upstream URL [--listen HOST:PORT] [--metrics HOST:PORT] [--sample F] [options]';

export const DEFAULT_LISTEN = '127.0.0.1:8090';
const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
const DEFAULT_QUEUE = 10_000;
const DEFAULT_QUEUE_BYTES = 64 * 1024 * 1024;
const DEFAULT_KEEP = 10;
/** SIGTERM: the judge drains within this (SPEC's promise for every judging command). */
const STOP_MS = 2000;

const HELP = (): string => `usage: ${usage()}

A proxy in front of an assembler served over the http transport (POST /assemble,
and whatever else it serves). Every request goes to the upstream with its method,
target, end-to-end headers and body, and its answer comes back as it came: status,
reason phrase, end-to-end headers in their order and spelling, body. A sample of the
POST /assemble exchanges is judged in a worker thread, as ctxconform replay judges
a recorded request (sent once: no determinism check), never on the request path.

What the proxy changes, and nothing else (SPEC SHD-2):
  - hop-by-hop headers (RFC 9110 section 7.6.1: Connection and the headers it names,
    Keep-Alive, Proxy-Connection, TE, Transfer-Encoding, Upgrade) are removed both ways,
    and Proxy-Authorization never reaches the upstream;
  - each hop is its own connection: toward the client the proxy writes its own
    Connection and Keep-Alive and frames the body (the upstream's Content-Length, else
    chunked); toward the upstream it keeps a pool of connections;
  - it adds no Date; interim 1xx answers are not passed on;
  - its own plain-text answers (x-ctxconform-shadow: upstream-failed): 502 when the
    upstream cannot be reached, breaks off before its headers, or sends what cannot be
    passed on (a bad byte, status 000, two lengths, a 101: upgrades are not tunnelled),
    504 when it is silent past --upstream-timeout;
  - the request's framing is its own: the length it read, or chunked (a client's
    Content-Length or Transfer-Encoding never goes as it came), and a Host for an
    HTTP/1.0 request without one;
  - refused before anything goes upstream (x-ctxconform-shadow: refused): a transfer
    coding other than chunked (501), a length beside a coding or two Host fields (400),
    2,000 header fields or more (431); an answer with that many is a 502;
  - a request lost on a pooled connection the upstream closed is sent once more on a
    new one when its method is idempotent (RFC 9110 9.2.2) or it is POST /assemble (an
    assembly is a pure function of its request); nothing else is retried.

  --upstream URL          the assembler's base URL (http://host:port[/prefix])
  --listen HOST:PORT      where the proxy listens (default ${DEFAULT_LISTEN}; port 0 picks one)
  --metrics HOST:PORT     serve /metrics (Prometheus text) and /status (HTML) there
  --manifest FILE         the implementation's manifest (default: GET URL/describe)
  --sample F              the fraction of POST /assemble exchanges judged, 0..1 (default 1)
  --max-body BYTES        a request or answer longer than this passes through unjudged,
                          counted (default ${DEFAULT_MAX_BODY})
  --upstream-timeout MS   the upstream silent this long: 504, or its answer cut
                          (default ${DEFAULT_UPSTREAM_TIMEOUT_MS})
  --header-timeout MS     a client's request headers must arrive within this: 408
                          (default ${DEFAULT_CLIENT_LIMITS.headersTimeoutMs})
  --request-timeout MS    a client's whole request must arrive within this: 408
                          (default ${DEFAULT_CLIENT_LIMITS.requestTimeoutMs})
  --idle-timeout MS       a kept-alive client connection idle this long is closed
                          (default ${DEFAULT_CLIENT_LIMITS.idleTimeoutMs})
  --max-connections N     client connections at once; one past it is closed as it comes
                          (default ${DEFAULT_CLIENT_LIMITS.maxConnections})
  --queue N               samples on their way to the judge at most; past that a sample
                          is dropped and counted, the traffic never waits (default ${DEFAULT_QUEUE})
  --queue-bytes BYTES     the same bound in bytes of requests and answers
                          (default ${DEFAULT_QUEUE_BYTES})
  --records DIR           write each disagreeing request, scrubbed, to DIR/<kind>.jsonl,
                          a file ctxconform replay reads
  --keep N                records kept per kind of disagreement (default ${DEFAULT_KEEP})

reports (written at the end):
${reportOptionsHelp()}
  --baseline FILE         known failures: counted (known="true" in /metrics), not alarmed
  --quiet                 at start, the addresses only

SIGTERM or SIGINT stops accepting, finishes the exchanges in flight and drains the judge
within 2 s, writes the reports of what was judged and exits with the verdict.

exit status: 0 no unexpected disagreement, 1 a disagreement the baseline does not know,
or nothing judged, 2 usage error or a manifest that cannot be read.`;

const options = () =>
  ({
    upstream: { type: 'string' },
    listen: { type: 'string' },
    metrics: { type: 'string' },
    manifest: { type: 'string' },
    sample: { type: 'string' },
    'max-body': { type: 'string' },
    'upstream-timeout': { type: 'string' },
    queue: { type: 'string' },
    'queue-bytes': { type: 'string' },
    'header-timeout': { type: 'string' },
    'request-timeout': { type: 'string' },
    'idle-timeout': { type: 'string' },
    'max-connections': { type: 'string' },
    records: { type: 'string' },
    keep: { type: 'string' },
    ...reportOptions(),
    baseline: { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  }) as const;

/** `HOST:PORT`, `[::1]:PORT` or `:PORT` (loopback). */
export function parseAddress(option: string, text: string): Address {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(text);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--${option} needs HOST:PORT with a port 0..65535, not ${JSON.stringify(text)}`);
  return { host: m[1] ?? (m[2] || '127.0.0.1'), port };
}

const isLoopback = (host: string): boolean => /^(127\.|::1$|localhost$)/.test(host);

function sampleOption(text: string | undefined): number {
  if (text === undefined) return 1;
  const f = Number(text);
  if (text.trim() === '' || !(f >= 0 && f <= 1)) throw new UsageError(`--sample needs a fraction 0..1, not ${JSON.stringify(text)}`);
  return f;
}

async function manifestOf(upstream: string, file: string | undefined): Promise<Manifest> {
  if (file !== undefined) return readManifest(file);
  try {
    const { impl, manifest } = await openHttp({ base: upstream });
    await impl.close();
    return manifest;
  } catch (e) {
    throw new UsageError(`cannot read the manifest of ${upstream}: ${(e as Error).message}; give --manifest FILE`);
  }
}

export async function run(argv: string[]): Promise<number> {
  // The report options are the registered formats' (report/formats/).
  await loadFormats();
  const { values } = parseArgs({ args: argv, options: options(), allowPositionals: false });
  if (values.help) {
    out(HELP());
    return EXIT_OK;
  }
  const upstream = values.upstream;
  if (upstream === undefined) throw new UsageError('name the assembler to shadow: --upstream URL');
  if (!/^http:\/\/[^/]+/.test(upstream)) throw new UsageError(`--upstream needs an http:// URL, not ${JSON.stringify(upstream)}`);
  const listenAt = parseAddress('listen', values.listen ?? DEFAULT_LISTEN);
  const metricsAt = values.metrics !== undefined ? parseAddress('metrics', values.metrics) : undefined;
  const sample = sampleOption(values.sample);
  const maxBodyBytes = intOption(values, 'max-body', DEFAULT_MAX_BODY, 0);
  const upstreamTimeoutMs = intOption(values, 'upstream-timeout', DEFAULT_UPSTREAM_TIMEOUT_MS, 1);
  const queueCapacity = intOption(values, 'queue', DEFAULT_QUEUE, 1);
  const queueBytes = intOption(values, 'queue-bytes', DEFAULT_QUEUE_BYTES, 1);
  const clients = {
    headersTimeoutMs: intOption(values, 'header-timeout', DEFAULT_CLIENT_LIMITS.headersTimeoutMs, 1),
    requestTimeoutMs: intOption(values, 'request-timeout', DEFAULT_CLIENT_LIMITS.requestTimeoutMs, 1),
    idleTimeoutMs: intOption(values, 'idle-timeout', DEFAULT_CLIENT_LIMITS.idleTimeoutMs, 1),
    maxConnections: intOption(values, 'max-connections', DEFAULT_CLIENT_LIMITS.maxConnections, 1),
  };
  // Node refuses a header timeout longer than the request's: say so in the flags' words.
  if (clients.headersTimeoutMs > clients.requestTimeoutMs)
    throw new UsageError(`--header-timeout (${clients.headersTimeoutMs} ms) cannot be longer than --request-timeout (${clients.requestTimeoutMs} ms)`);
  const keep = intOption(values, 'keep', DEFAULT_KEEP, 0);
  if (values.keep !== undefined && values.records === undefined) throw new UsageError('--keep says how many records --records DIR keeps: give --records');
  await checkBaseline(values.baseline);
  await checkReportPaths(values);
  const manifest = await manifestOf(upstream, values.manifest);

  const shadow = await startShadow({
    upstream,
    listen: listenAt,
    ...(metricsAt ? { metrics: metricsAt } : {}),
    manifest,
    sample,
    maxBodyBytes,
    upstreamTimeoutMs,
    queueCapacity,
    queueBytes,
    clients,
    ...(values.records !== undefined ? { records: { dir: values.records, perKind: keep } } : {}),
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
    onJudgeError: (message) => err(`ctxconform shadow: ${message}`),
  }).catch((e: Error) => {
    throw new UsageError(`cannot listen: ${e.message}`);
  });
  for (const [what, a] of [
    ['proxy', listenAt],
    ['metrics', metricsAt],
  ] as const)
    if (a && !isLoopback(a.host)) err(`warning: the ${what} listens on ${a.host}, beyond loopback: anyone who can reach it can use it`);
  // The addresses are printed whatever --quiet says: with port 0 they are the only way to know them.
  out(`ctxconform shadow listening on ${shadow.url} -> ${upstream}, judging ${Math.round(sample * 1000) / 10}% of POST /assemble`);
  if (shadow.metricsUrl) out(`metrics on ${shadow.metricsUrl}/metrics, status on ${shadow.metricsUrl}/status`);
  if (!values.quiet) out('SIGTERM or Ctrl-C stops it and writes the reports');

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  const flags = [`--${httpTransport.option}`, shellQuote(upstream), ...(values.manifest !== undefined ? ['--manifest', shellQuote(values.manifest)] : [])];
  const { report, drained } = await shadow.stop({ ms: STOP_MS, rerun: (k) => rerunCommand('replay', flags, [shellQuote(`${k.file}:${k.line}`)]) });
  const t = shadow.tally;
  out(
    `\n${signal}: stopped. ${t.requests} requests passed through, ${t.sampled} sampled, ${report.summary.total} ` +
      `judged, ${t.dropped} dropped (queue full), ${t.oversize} over --max-body, ${t.upstreamFailures} upstream ` +
      `failures${drained ? '' : '; the judge did not drain within 2 s: samples still queued are not counted'}`,
  );
  const { status } = await finish(report, values, {
    opened: { adapter: report.run?.adapter ?? '', target: upstream },
    what: `judged requests in ${((report.run?.duration_ms ?? 0) / 1000).toFixed(1)} s`,
    printAtMost: 20,
  });
  return status;
}
