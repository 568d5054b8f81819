/**
 * Every way the kit reaches an implementation, in one table. A transport
 * names the option that selects it, its help line, its own further options,
 * what it drives (an assembler answers requests; a service is judged on the
 * memory-api contract), and how it opens, turning a start failure into a
 * UsageError (exit 2). Commands, rerun commands, help texts, report labels and
 * the vitest helper all read this table, so a new transport is its adapter
 * plus one registerTransport call.
 */
import { resolve } from 'node:path';
import { referenceImplementation } from '../../adapters/reference.js';
import { StdioStartError, openStdio } from '../../adapters/stdio.js';
import { DEFAULT_MARKER } from '../../adapters/memory-api/marker.js';
import type { Implementation, Manifest } from '../../protocol/types.js';
import { UsageError, intOption } from '../usage.js';
import { shellQuote } from './console.js';

/** An assembler answers requests (every command drives it); a service is judged on its contract (`run` only). */
export type TransportKind = 'assembler' | 'service';

export interface TransportOption {
  type: 'string' | 'boolean';
  /** The value's placeholder in the help (`N`, `KEY`). */
  metavar?: string;
  help: string;
  /** Never written into a rerun command or a report: the command names this environment variable instead. */
  secret?: string;
  /** Left out of rerun commands: it judges the whole run, not the one result a rerun repeats. */
  wholeRun?: boolean;
}

/** What a transport is opened with: the selecting option's value, every parsed option, and the driving settings. */
export interface OpenRequest {
  value: string;
  values: Readonly<Record<string, unknown>>;
  /** The manifest given with --manifest, read and checked. */
  manifest?: Manifest;
  timeoutMs: number;
  concurrency: number;
}

export interface Transport {
  /** The name reports give it (`run.adapter`) and the terminal shows. */
  name: string;
  /** The option that selects it (`--module PATH`: option `module`, metavar `PATH`). */
  option: string;
  metavar: string;
  help: string;
  kind: TransportKind;
  /** Requests in flight by default: one for what runs in this process, more for a process or a server. */
  concurrency: number;
  /** Its own further options; giving one without the transport is a usage error. */
  options?: Record<string, TransportOption>;
  /** Whether --manifest may stand in for its describe answer. */
  takesManifest: boolean;
  /** A UsageError for a value that cannot name anything to start, found before anything is read or started (open() is called only after it). */
  checkValue?(value: string): void;
  /** Start it; a failure to start is a UsageError saying why. Its describe answer is checked by the caller. */
  open(o: OpenRequest): Promise<{ impl: Implementation; manifest: Manifest; target: string }>;
}

const registry = new Map<string, Transport>();

/** Add a transport (built-in ones below; a test adds a fake one). Its option names must be new. */
export function registerTransport(t: Transport): void {
  const taken = new Set([...DRIVING_OPTION_NAMES, ...[...registry.values()].flatMap((r) => [r.option, ...Object.keys(r.options ?? {})])]);
  for (const name of [t.option, ...Object.keys(t.options ?? {})]) if (taken.has(name)) throw new Error(`transport ${t.name}: option --${name} is taken`);
  registry.set(t.name, t);
}

/** Forget a transport registerTransport added (for tests). */
export function unregisterTransport(name: string): void {
  registry.delete(name);
}

export function transports(): Transport[] {
  return [...registry.values()];
}

/** Options of every driving command besides the transports' own. */
const DRIVING = {
  manifest: { type: 'string', metavar: 'FILE', help: 'the manifest, when the implementation cannot describe itself' },
  timeout: { type: 'string', metavar: 'MS', help: 'per request (default 5000)' },
  concurrency: { type: 'string', metavar: 'N', help: 'requests in flight (default 1 in process, 4 over stdio and http)' },
} as const satisfies Record<string, TransportOption>;
const DRIVING_OPTION_NAMES = Object.keys(DRIVING);

/** node:util parseArgs options for choosing and driving an implementation. */
export function drivingOptions(): Record<string, { type: 'string' | 'boolean' }> {
  const out: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const t of registry.values()) {
    out[t.option] = { type: 'string' };
    for (const [name, o] of Object.entries(t.options ?? {})) out[name] = { type: o.type };
  }
  for (const [name, o] of Object.entries(DRIVING)) out[name] = { type: o.type };
  return out;
}

/** The column help texts start in, as in every command's help. */
const HELP_COLUMN = 26;

const helpLine = (flag: string, help: string, indent = '  '): string => {
  const pad = HELP_COLUMN - indent.length;
  const gap = ' '.repeat(HELP_COLUMN);
  return `${indent}${flag.padEnd(pad)}${flag.length >= pad ? `\n${gap}` : ''}${help.replaceAll('\n', `\n${gap}`)}`;
};

/** The transports a command drives, for its usage line: `--impl reference | --module PATH | ...`. */
export function transportUsage(kinds: readonly TransportKind[] = ['assembler']): string {
  return [...registry.values()]
    .filter((t) => kinds.includes(t.kind))
    .map((t) => `--${t.option} ${t.metavar}`)
    .join(' | ');
}

/** The help block of the implementation options, for the transports a command drives. */
export function transportHelp(kinds: readonly TransportKind[] = ['assembler']): string {
  const lines = ['implementation (one; default --impl reference):'];
  for (const t of registry.values()) {
    if (!kinds.includes(t.kind)) continue;
    lines.push(helpLine(`--${t.option} ${t.metavar}`, t.help));
    for (const [name, o] of Object.entries(t.options ?? {})) lines.push(helpLine(`--${name}${o.metavar ? ` ${o.metavar}` : ''}`, o.help, '    '));
  }
  for (const [name, o] of Object.entries(DRIVING)) lines.push(helpLine(`--${name} ${o.metavar}`, o.help));
  return lines.join('\n');
}

/** The one transport the options name (the reference when none), with its value; usage errors for two or a stray option. */
export function chosenTransport(
  values: Readonly<Record<string, unknown>>,
  kinds: readonly TransportKind[] = ['assembler', 'service'],
): { transport: Transport; value: string } {
  const named = [...registry.values()].filter((t) => values[t.option] !== undefined);
  if (named.length > 1) throw new UsageError(`choose one implementation, not ${named.map((t) => `--${t.option}`).join(' and ')}`);
  const transport = named[0] ?? registry.get('reference')!;
  const value = named[0] ? String(values[transport.option]) : 'reference';
  for (const t of registry.values()) {
    if (t === transport) continue;
    for (const name of Object.keys(t.options ?? {})) if (values[name] !== undefined) throw new UsageError(`--${name} goes with --${t.option}`);
  }
  if (!kinds.includes(transport.kind)) {
    throw new UsageError(`--${transport.option} is a ${transport.kind} judged on its contract: ctxconform run drives it, this command does not`);
  }
  if (values['manifest'] !== undefined && !transport.takesManifest)
    throw new UsageError(`--${transport.option} describes itself: it cannot be combined with --manifest`);
  return { transport, value };
}

/** The driving settings the options give for this transport: timeout and concurrency. */
export function drivingSettings(values: Readonly<Record<string, unknown>>, transport: Transport): { timeoutMs: number; concurrency: number } {
  return { timeoutMs: intOption(values, 'timeout', 5000, 1), concurrency: intOption(values, 'concurrency', transport.concurrency, 1) };
}

/**
 * The options that reach the same implementation again, as given: the
 * transport's option and its own options (a secret as the environment variable
 * to set), --manifest, and --timeout when it was given and `timeout` is kept.
 */
export function implementationFlags(values: Readonly<Record<string, unknown>>, { timeout = true }: { timeout?: boolean } = {}): string[] {
  const { transport, value } = chosenTransport(values);
  const flags = values[transport.option] !== undefined ? [`--${transport.option}`, shellQuote(value)] : [];
  for (const [name, o] of Object.entries(transport.options ?? {})) {
    const v = values[name];
    if (v === undefined || o.wholeRun) continue;
    if (o.type === 'boolean') flags.push(`--${name}`);
    else flags.push(`--${name}`, o.secret ? `"$${o.secret}"` : shellQuote(String(v)));
  }
  if (typeof values['manifest'] === 'string') flags.push('--manifest', shellQuote(values['manifest']));
  if (timeout && typeof values['timeout'] === 'string') flags.push('--timeout', values['timeout']);
  return flags;
}

/** The command a vendor pastes to rerun one result: `npx ctxconform COMMAND FLAGS... REST...`. */
export function rerunCommand(command: string, flags: readonly string[], rest: readonly string[]): string {
  return ['npx', 'ctxconform', command, ...flags, ...rest].join(' ');
}

/** A start error of one adapter, as a UsageError that says what could not be started and why. */
async function starting<T>(start: () => Promise<T>, StartError: abstract new (...args: never[]) => Error, cannot: string): Promise<T> {
  try {
    return await start();
  } catch (e) {
    if (e instanceof StartError) throw new UsageError(`${cannot}: ${e.message}`);
    throw e;
  }
}

function httpUrl(option: string, value: string): void {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return;
  } catch {
    // fall through to the usage error
  }
  throw new UsageError(`--${option} needs an http(s) URL (http:// or https://), not ${JSON.stringify(value)}`);
}

/** The reference transport's one value. */
function referenceValue(value: string): void {
  if (value !== 'reference') throw new UsageError(`--impl takes only "reference", not ${JSON.stringify(value)}`);
}

registerTransport({
  name: 'reference',
  option: 'impl',
  metavar: 'reference',
  help: 'the built-in reference assembler',
  kind: 'assembler',
  concurrency: 1,
  takesManifest: true,
  checkValue: referenceValue,
  async open({ manifest }) {
    const impl = referenceImplementation(manifest);
    return { impl, manifest: await impl.describe(), target: 'reference' };
  },
});

registerTransport({
  name: 'module',
  option: 'module',
  metavar: 'PATH',
  help: 'an ES module exporting assemble(request) [and describe()]',
  kind: 'assembler',
  // A worker thread answers one request at a time.
  concurrency: 1,
  takesManifest: true,
  async open({ value, manifest }) {
    const { ModuleStartError, openModuleWorker } = await import('../../adapters/module.js');
    const opened = await starting(() => openModuleWorker(value, manifest), ModuleStartError, `cannot load the module ${value}`);
    return { ...opened, target: resolve(value) };
  },
});

registerTransport({
  name: 'stdio',
  option: 'stdio',
  metavar: '"COMMAND"',
  help: 'a process speaking JSON lines on stdin/stdout (SPEC PROTO-3)',
  kind: 'assembler',
  concurrency: 4,
  takesManifest: true,
  options: {
    processes: {
      type: 'string',
      metavar: 'N',
      help: 'copies of the command to spread requests over, started as needed\n(default: the concurrency; 1 pipelines every request into one process)',
    },
  },
  async open({ value, values, manifest, timeoutMs, concurrency }) {
    if (value.trim() === '') throw new UsageError('--stdio needs a command');
    const processes = intOption(values, 'processes', concurrency, 1);
    const opened = await starting(
      () => openStdio({ command: value, ...(manifest ? { manifest } : {}), timeoutMs, processes }),
      StdioStartError,
      `cannot start ${shellQuote(value)}`,
    );
    return { ...opened, target: value };
  },
});

registerTransport({
  name: 'http',
  option: 'http',
  metavar: 'URL',
  help: 'a server answering POST URL/assemble, GET URL/describe',
  kind: 'assembler',
  concurrency: 4,
  takesManifest: true,
  checkValue: (value) => httpUrl('http', value),
  async open({ value, manifest, timeoutMs, concurrency }) {
    // Loaded only for --http: undici alone costs a few hundred ms of start-up.
    const { HttpStartError, openHttp } = await import('../../adapters/http.js');
    const opened = await starting(
      () => openHttp({ base: value, concurrency, timeoutMs, ...(manifest ? { manifest } : {}) }),
      HttpStartError,
      `cannot reach ${value}`,
    );
    return { ...opened, target: value };
  },
});

/** The memory-api target's own options, as the contract run needs them again. */
export interface MemoryApiSettings {
  url: string;
  apiKey?: string;
  task?: string;
  marker?: string;
  /** `--estimator` as given (checked when the transport opens). */
  estimator?: string;
}

/** The memory-api options of a command line (the URL given). */
export function memoryApiSettings(values: Readonly<Record<string, unknown>>): MemoryApiSettings {
  const str = (k: string): string | undefined => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const apiKey = str('api-key');
  const task = str('task');
  const marker = str('marker');
  const estimator = str('estimator');
  return {
    url: String(values['memory-api']),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(task !== undefined ? { task } : {}),
    ...(marker !== undefined ? { marker } : {}),
    ...(estimator !== undefined ? { estimator } : {}),
  };
}

registerTransport({
  name: 'memory-api',
  option: 'memory-api',
  metavar: 'URL',
  help: 'a memory-api v0 service (profile working-context-api; SPEC section 16,\ndocs/memory-api.md): golden cases skip, the contract is checked\n(--properties N random requests after the directed ones)',
  kind: 'service',
  // The contract's exchanges follow one another: each reads what the one before stored.
  concurrency: 1,
  takesManifest: false,
  options: {
    'api-key': { type: 'string', metavar: 'KEY', help: 'sent as Authorization: Bearer KEY', secret: 'MEMORY_API_KEY' },
    task: { type: 'string', metavar: 'TEXT', help: 'the task sent instead of the marker' },
    estimator: {
      type: 'string',
      metavar: 'E',
      help: "how the service counts tokens: characters (code points) per token,\ndefault 4 (NUM-2), or o200k_base or cl100k_base; the kit recounts\nevery answer's segments with it and judges MAPI-3 on the larger count",
    },
    'require-tested': {
      type: 'string',
      metavar: 'IDS',
      help: 'all, or clause ids (MAPI-11,MAPI-13): such a clause that no exchange\ntested fails the run (exit 1) instead of skipping',
      wholeRun: true,
    },
    marker: {
      type: 'string',
      metavar: 'TOKEN',
      help: `one word carried by every ingested text and sent as the task, so a\nservice that retrieves by relevance finds every memory (default\n${DEFAULT_MARKER}; '' ingests the block contents unchanged)`,
    },
  },
  checkValue: (value) => httpUrl('memory-api', value),
  async open({ value, values, timeoutMs }) {
    const marker = values['marker'];
    // One token: a marker with a space in it is two words to a retriever, and either may be extracted on its own.
    if (typeof marker === 'string' && /\s/u.test(marker))
      throw new UsageError(`--marker needs one token without spaces (or '' for none), not ${JSON.stringify(marker)}`);
    const { openMemoryApi, memoryApiManifest } = await import('../../adapters/memory-api/index.js');
    // The contract alone counts with --estimator (cli/run.ts checks it): the adapter does not.
    const { url: _url, estimator: _estimator, ...chosen } = memoryApiSettings(values);
    return { impl: openMemoryApi({ url: value, timeoutMs, ...chosen }), manifest: memoryApiManifest(), target: value };
  },
});
