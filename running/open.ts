/**
 * One implementation behind a registered transport, opened from its typed
 * config (running/transports.ts). Everything that keeps it from starting (an
 * unreadable manifest, a config member that names nothing, a process that
 * dies at start, a server that refuses) is a CallerError. The describe
 * answer is checked against the manifest schema unless a manifest was given
 * or the transport trusts its own.
 */
import { designProblems } from '../judging/principles/design.js';
import { readFileSync } from 'node:fs';
import { formatErrors, validators } from '../protocol/schemas.js';
import { constantsProblems } from '../reference/index.js';
import type { Implementation, Manifest } from '../protocol/types.js';
import { Redactor, credentialsIn } from '../protocol/redact.js';
import { CallerError } from '../vocabulary/errors.js';
import { loadTransports, transportNamed, type AnyTransport, type OpenSettings, type TransportConfigs } from './transports.js';

/** Per request, when the caller does not say. */
export const DEFAULT_TIMEOUT_MS = 5000;

/** An implementation opened, with the transport and settings it is driven with. */
export interface OpenedImplementation {
  impl: Implementation;
  manifest: Manifest;
  /** The transport's name, as reports give it. */
  adapter: string;
  target: string;
  transport: AnyTransport;
  /** The transport's config it was opened with. */
  config: unknown;
  timeoutMs: number;
  concurrency: number;
  /** The secrets of its config (redactorFor): whatever the run writes goes through it. */
  redactor: Redactor;
}

/** A transport by name with its typed config (`{ transport: 'stdio', config: { command: 'python3 impl.py' } }`). */
export type TransportChoice = [keyof TransportConfigs] extends [never]
  ? { transport: string; config: object }
  : { [N in keyof TransportConfigs]: { transport: N; config: TransportConfigs[N] } }[keyof TransportConfigs];

/** What openImplementation takes: the transport and its config, and how it is driven. */
export type ImplementationChoice = TransportChoice & {
  /** Stands in for the describe answer (a transport that describes itself takes none); a string is the file holding it. */
  manifest?: Manifest | string;
  /** Per request (default 5000). */
  timeoutMs?: number;
  /** Requests in flight (default: the transport's). */
  concurrency?: number;
};

/** A manifest file, checked; a CallerError naming the file when it cannot be read or is not valid. */
export function readManifest(file: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CallerError(`cannot read the manifest ${file}: ${(e as Error).message}`);
  }
  return checkManifest(value, file);
}

/** The manifest schema, then what it cannot say: declared tier shares summing to at most 100, and tiered declared with them (DECL-1); a design declared with any (DES-4). */
function checkManifest(value: unknown, from: string): Manifest {
  const valid = validators.manifest();
  if (!valid(value)) throw new CallerError(`the manifest from ${from} is not valid: ${formatErrors(valid.errors).join('; ')}`);
  const m = value as Manifest;
  const problems = m.constants === undefined ? [] : constantsProblems(m.constants);
  if (m.constants !== undefined && !m.profiles.includes('tiered'))
    problems.push({ path: '', message: 'declared constants are those of profile tiered, which the manifest does not declare' });
  if (problems.length > 0)
    throw new CallerError(`the manifest from ${from} is not valid: ${problems.map((p) => `/constants${p.path}: ${p.message}`).join('; ')}`);
  const design = designProblems(m);
  if (design.length > 0) throw new CallerError(`the manifest from ${from} is not valid: ${design.join('; ')}`);
  return m;
}

/** The transport a choice names, once the registry is loaded; a CallerError naming the ones there are otherwise. */
export async function chosenTransport(name: string): Promise<AnyTransport> {
  await loadTransports();
  const t = transportNamed(name);
  if (!t) throw new CallerError(`no transport ${JSON.stringify(name)}`);
  return t;
}

/** Check a transport's config as its entry does (a ConfigError), before anything is read or started. */
export async function checkConfig(transport: AnyTransport, config: unknown): Promise<void> {
  await transport.check?.(config);
}

/**
 * The secrets a transport's config holds: the values of its `secret` options
 * (an API key) and the credentials of any URL in its members. Every report,
 * rerun command and terminal line of the run goes through this redactor.
 */
export function redactorFor(transport: AnyTransport, config: unknown): Redactor {
  const c = (typeof config === 'object' && config !== null ? config : {}) as Record<string, unknown>;
  const secrets: string[] = [];
  for (const o of Object.values(transport.options ?? {})) {
    const v = c[o.key];
    if (o.secret !== undefined && typeof v === 'string') secrets.push(v);
  }
  for (const v of Object.values(c)) if (typeof v === 'string') secrets.push(...credentialsIn(v));
  return new Redactor(secrets);
}

/**
 * Open a checked config: start the transport, then check its describe answer
 * unless a manifest was given or the transport trusts its own; a failure
 * after the start closes what was started.
 */
export async function openChecked(transport: AnyTransport, config: unknown, settings: OpenSettings): Promise<OpenedImplementation> {
  if (settings.manifest !== undefined && !transport.takesManifest) throw new CallerError(`${transport.name} describes itself: it takes no manifest`);
  const redactor = redactorFor(transport, config);
  let opened: Awaited<ReturnType<AnyTransport['open']>>;
  try {
    opened = await transport.open(config, settings);
  } catch (e) {
    // A start failure quotes what it tried to reach (a URL with its password) and what answered (an echoed header).
    if (e instanceof Error) e.message = redactor.text(e.message);
    throw e;
  }
  const target = redactor.text(opened.target);
  try {
    const describedBy = transport.describedBy?.(target) ?? `the describe answer of ${target}`;
    const manifest = settings.manifest ?? (transport.trustsDescribe ? opened.manifest : checkManifest(opened.manifest, describedBy));
    return {
      impl: opened.impl,
      manifest,
      adapter: transport.name,
      target,
      transport,
      config,
      timeoutMs: settings.timeoutMs,
      concurrency: settings.concurrency,
      redactor,
    };
  } catch (e) {
    if (e instanceof Error) e.message = redactor.text(e.message);
    await opened.impl.close();
    throw e;
  }
}

/** Open the implementation a choice names, typed per transport: the code API (tests, benches, the vitest helper). */
export async function openImplementation(choice: ImplementationChoice): Promise<OpenedImplementation> {
  const transport = await chosenTransport(choice.transport);
  await checkConfig(transport, choice.config);
  const manifest = typeof choice.manifest === 'string' ? readManifest(choice.manifest) : choice.manifest;
  return openChecked(transport, choice.config, {
    ...(manifest !== undefined ? { manifest } : {}),
    timeoutMs: choice.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    concurrency: choice.concurrency ?? transport.concurrency,
  });
}
