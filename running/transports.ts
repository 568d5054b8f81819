/**
 * The registry of every way the kit reaches an implementation. Each
 * transport is one entry module in running/transports/, found there at
 * run time (no list names them): its options, its typed config and how it
 * opens, its adapter imported only when it opens. Commands, help texts,
 * rerun commands, report labels and the vitest helper all read the entries,
 * so a new transport is its adapter plus its entry.
 */
import { fileURLToPath } from 'node:url';
import { entryModules } from '../protocol/entries.js';
import type { CaseResult } from '../protocol/types.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { ConfigError } from '../vocabulary/errors.js';

/**
 * An assembler answers requests (run, replay, sweep and constants drive it);
 * a service is judged on the memory-api contract (SPEC section 16) by
 * `contract`, its config a ServiceConfig (running/contract-run.ts).
 */
export type TransportKind = 'assembler' | 'service';

/**
 * Each transport's config, by transport name. An entry module adds its own
 * (`declare module './transports.js' { interface TransportConfigs
 * { stdio: StdioConfig } }`), so the code API is typed per transport.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the entries add their members by declaration merging
export interface TransportConfigs {}

/** One option of a transport, as a command line spells it and its config holds it. */
export interface TransportOption {
  /** The config member it sets. */
  key: string;
  /** `integer` options are whole numbers of at least `min` (default 1); a `list` option may be given again, each value kept in order. */
  type: 'string' | 'integer' | 'boolean' | 'list';
  min?: number;
  /** The value's placeholder in the help (`N`, `KEY`). */
  metavar?: string;
  help: string;
  /** Never written into a rerun command or a report: the command names this environment variable instead. */
  secret?: string;
  /** Left out of rerun commands: it judges the whole run, not the one result a rerun repeats. */
  wholeRun?: boolean;
  /** A `list` value as a rerun command writes it (a secret's value left out, say). */
  listRerun?: (value: string) => string;
}

/** What every transport is opened with besides its config. */
export interface OpenSettings {
  /** A manifest the caller gave, read and checked: it stands in for the describe answer where the transport takes one. */
  manifest?: Manifest;
  timeoutMs: number;
  /** Requests the caller keeps in flight. */
  concurrency: number;
}

export interface Opened {
  impl: Implementation;
  manifest: Manifest;
  /** What it reaches, as the terminal and the reports show it (a URL, a command, a resolved path). */
  target: string;
}

export interface Transport<C = never> {
  /** The name reports give it (`run.adapter`) and the terminal shows. */
  name: string;
  /** The option that selects it (`--module PATH`: option `module`, metavar `PATH`). */
  option: string;
  metavar: string;
  help: string;
  /** The config member the selecting option's value sets; none when the value only names the transport (`--impl reference`). */
  key?: string;
  /** The only values the selecting option takes, when it takes only these. */
  choices?: readonly string[];
  kind: TransportKind;
  /** Where help texts and usage lines list it, smallest first. */
  rank: number;
  /** The transport a command drives when none is named. */
  isDefault?: boolean;
  /** Requests in flight by default: one for what runs in this process, more for a process or a server. */
  concurrency: number;
  /** Its own further options, by option name; giving one without the transport is a usage error. */
  options?: Record<string, TransportOption>;
  /** Whether a given manifest may stand in for its describe answer. */
  takesManifest: boolean;
  /** Its describe answer is the kit's own making (the reference's, a service's fixed one): not checked against the manifest schema. */
  trustsDescribe?: boolean;
  /** Where its describe answer came from, for the message when it is not a valid manifest (default `the describe answer of TARGET`). */
  describedBy?(target: string): string;
  /** A ConfigError for a config that cannot name anything to start, found before anything is read or started. */
  check?(config: C): void | Promise<void>;
  /** Start it; a failure to start is a StartError saying what and why. Its describe answer is checked by the caller. */
  open(config: C, settings: OpenSettings): Promise<Opened>;
  /** What a run's results say about reaching the implementation this way, one line each (running/run-notes.ts). */
  notes?(cases: readonly CaseResult[]): string[];
}

/** A transport of any config, as the registry holds it (its methods take the config bivariantly: each entry is typed where it is defined). */
export type AnyTransport = Transport<unknown>;

/** An entry module's transport, typed by its config (identity: it only checks the entry against its config). */
export function defineTransport<N extends keyof TransportConfigs>(t: Transport<TransportConfigs[N]> & { name: N }): Transport<TransportConfigs[N]> {
  return t;
}

const registry = new Map<string, AnyTransport>();

/** Add a transport; its option names must be new. The entries of running/transports/ come through loadTransports. */
export function registerTransport(t: AnyTransport): void {
  if (registry.has(t.name)) throw new Error(`transport ${t.name} is registered twice`);
  const taken = new Set([...registry.values()].flatMap((r) => [r.option, ...Object.keys(r.options ?? {})]));
  for (const name of [t.option, ...Object.keys(t.options ?? {})]) if (taken.has(name)) throw new Error(`transport ${t.name}: option --${name} is taken`);
  registry.set(t.name, t);
}

/** Forget a transport registerTransport added (for tests). */
export function unregisterTransport(name: string): void {
  registry.delete(name);
}

/** Every registered transport, in rank order. Call loadTransports first. */
export function transports(): AnyTransport[] {
  return [...registry.values()].sort((a, b) => a.rank - b.rank);
}

export function transportNamed(name: string): AnyTransport | undefined {
  return registry.get(name);
}

/** The transport used when none is named. */
export function defaultTransport(): AnyTransport {
  const t = transports().find((x) => x.isDefault);
  if (!t) throw new Error('no transport is registered as the default');
  return t;
}

/** The entry modules' folder, beside this one's. */
const ENTRIES = fileURLToPath(new URL('./transports/', import.meta.url));

/**
 * Register every entry module of `dir`: each file that ends as this module
 * does (`.js` compiled, `.ts` under vitest or tsx) and default-exports a
 * transport. A module that exports none is an error naming it.
 */
export async function registerTransportsIn(dir: string): Promise<void> {
  for (const t of await entryModules(dir, import.meta.url, isTransport, 'transport', 'defineTransport')) registerTransport(t);
}

const isTransport = (x: unknown): x is AnyTransport =>
  typeof x === 'object' && x !== null && typeof (x as AnyTransport).open === 'function' && typeof (x as AnyTransport).name === 'string';

let loaded: Promise<void> | undefined;

/** Register the built-in transports (once; later calls wait for the first). */
export function loadTransports(): Promise<void> {
  loaded ??= registerTransportsIn(ENTRIES);
  return loaded;
}

/** For entries reached at a URL: a ConfigError unless `value` is an http(s) URL. */
export function checkHttpUrl(member: string, value: string): void {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return;
  } catch {
    // fall through to the config error
  }
  throw new ConfigError(member, `needs an http(s) URL (http:// or https://), not ${JSON.stringify(value)}`);
}
