/**
 * One implementation behind whichever transport the options name
 * (runner/transports.ts). Everything that keeps a run from starting (two
 * targets, an unreadable manifest, a process that dies at start, a server
 * that refuses) is a UsageError: exit 2. The describe answer is checked
 * against the manifest schema unless --manifest gave the manifest.
 */
import { readFileSync } from 'node:fs';
import { formatErrors, validators } from '../../protocol/schemas.js';
import { constantsProblems } from '../../reference/index.js';
import type { Implementation, Manifest } from '../../protocol/types.js';
import { UsageError } from '../usage.js';
import { chosenTransport, drivingSettings, type Transport, type TransportKind } from './transports.js';

export interface OpenedImplementation {
  impl: Implementation;
  manifest: Manifest;
  /** The transport's name, as reports give it. */
  adapter: string;
  target: string;
}

/** An implementation opened from a command line's options, with the settings it is driven with. */
export interface Driven extends OpenedImplementation {
  transport: Transport;
  timeoutMs: number;
  concurrency: number;
}

/** A manifest file (`--manifest`), checked; a UsageError naming the file when it cannot be read or is not valid. */
export function readManifest(file: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the manifest ${file}: ${(e as Error).message}`);
  }
  return checkManifest(value, file);
}

/** The manifest schema, then what it cannot say: declared tier shares summing to at most 100, and tiered declared with them (DECL-1). */
function checkManifest(value: unknown, from: string): Manifest {
  const valid = validators.manifest();
  if (!valid(value)) throw new UsageError(`the manifest from ${from} is not valid: ${formatErrors(valid.errors).join('; ')}`);
  const m = value as Manifest;
  const problems = m.constants === undefined ? [] : constantsProblems(m.constants);
  if (m.constants !== undefined && !m.profiles.includes('tiered'))
    problems.push({ path: '', message: 'declared constants are those of profile tiered, which the manifest does not declare' });
  if (problems.length > 0)
    throw new UsageError(`the manifest from ${from} is not valid: ${problems.map((p) => `/constants${p.path}: ${p.message}`).join('; ')}`);
  return m;
}

/** Where a transport's describe answer came from, for the message when it is not a valid manifest. */
const DESCRIBED_BY: Record<string, (target: string) => string> = {
  module: (t) => `${t} describe()`,
  stdio: (t) => `the describe answer of ${t}`,
  http: (t) => `GET ${t}/describe`,
};

/**
 * The implementation options checked without starting anything: two targets,
 * a stray option, --timeout and --concurrency, the --manifest file, a value
 * that names nothing. A command that reads a corpus first calls this before
 * it, so that a usage error is said at once instead of after the reading.
 */
export function checkImplementationOptions(values: Readonly<Record<string, unknown>>, kinds: readonly TransportKind[] = ['assembler']): void {
  checkedOptions(values, kinds);
}

function checkedOptions(values: Readonly<Record<string, unknown>>, kinds: readonly TransportKind[]) {
  const { transport, value } = chosenTransport(values, kinds);
  const given = typeof values['manifest'] === 'string' ? readManifest(values['manifest']) : undefined;
  const settings = drivingSettings(values, transport);
  transport.checkValue?.(value);
  return { transport, value, given, settings };
}

/** Open the implementation the parsed options name, for a command that drives `kinds`. */
export async function openFromOptions(values: Readonly<Record<string, unknown>>, kinds: readonly TransportKind[] = ['assembler']): Promise<Driven> {
  const { transport, value, given, settings } = checkedOptions(values, kinds);
  const opened = await transport.open({ value, values, ...(given ? { manifest: given } : {}), ...settings });
  try {
    const describedBy = (DESCRIBED_BY[transport.name] ?? ((t: string) => `the describe answer of ${t}`))(opened.target);
    const manifest = given ?? (transport.kind === 'service' || transport.name === 'reference' ? opened.manifest : checkManifest(opened.manifest, describedBy));
    return { impl: opened.impl, manifest, adapter: transport.name, target: opened.target, transport, ...settings };
  } catch (e) {
    await opened.impl.close();
    throw e;
  }
}

/** The implementation options as code gives them (the vitest helper, tests, benches). */
export interface ImplementationOptions {
  impl?: 'reference';
  module?: string;
  stdio?: string;
  http?: string;
  manifest?: string;
  timeoutMs?: number;
  concurrency?: number;
  /** stdio: copies of the command (default: the concurrency, else 1). */
  processes?: number;
}

/** openFromOptions for options given as code: one request at a time unless told otherwise. */
export async function openImplementation(o: ImplementationOptions): Promise<OpenedImplementation> {
  const { timeoutMs, concurrency, processes, ...named } = o;
  const values: Record<string, unknown> = { ...named };
  if (timeoutMs !== undefined) values['timeout'] = String(timeoutMs);
  if (concurrency !== undefined) values['concurrency'] = String(concurrency);
  if (o.stdio !== undefined) values['processes'] = String(processes ?? concurrency ?? 1);
  const { impl, manifest, adapter, target } = await openFromOptions(values, ['assembler', 'service']);
  return { impl, manifest, adapter, target };
}
