/**
 * One implementation behind whichever adapter the options name. Everything
 * that keeps a run from starting (two targets, an unreadable manifest, a
 * process that dies at start, a server that refuses) is a UsageError: exit 2.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ModuleStartError, openModuleWorker } from '../../adapters/module.js';
import { referenceImplementation } from '../../adapters/reference.js';
import { StdioStartError, openStdio } from '../../adapters/stdio.js';
import { UsageError } from '../usage.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import { constantsProblems } from '../../reference/index.js';
import { shellQuote } from './console.js';
import type { AdapterName, Implementation, Manifest } from '../../protocol/types.js';

export interface ImplementationOptions {
  impl?: 'reference';
  module?: string;
  stdio?: string;
  http?: string;
  manifest?: string;
  timeoutMs?: number;
  concurrency?: number;
  /** stdio: copies of the command (default: the concurrency). */
  processes?: number;
}

/** node:util parseArgs options for choosing the implementation. */
export const IMPLEMENTATION_OPTIONS = {
  impl: { type: 'string' },
  module: { type: 'string' },
  stdio: { type: 'string' },
  http: { type: 'string' },
  manifest: { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** The parsed values of IMPLEMENTATION_OPTIONS as ImplementationOptions (absent flags stay absent). */
export function implementationOptionsFrom(
  values: { impl?: string; module?: string; stdio?: string; http?: string; manifest?: string },
  timeoutMs: number,
): ImplementationOptions {
  return {
    ...(values.impl !== undefined ? { impl: values.impl as 'reference' } : {}),
    ...(values.module !== undefined ? { module: values.module } : {}),
    ...(values.stdio !== undefined ? { stdio: values.stdio } : {}),
    ...(values.http !== undefined ? { http: values.http } : {}),
    ...(values.manifest !== undefined ? { manifest: values.manifest } : {}),
    timeoutMs,
  };
}

export interface OpenedImplementation {
  impl: Implementation;
  manifest: Manifest;
  adapter: Exclude<AdapterName, 'memory-api'>;
  target: string;
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
  if (m.constants !== undefined && !m.profiles.includes('tiered')) problems.push({ path: '', message: 'declared constants are those of profile tiered, which the manifest does not declare' });
  if (problems.length > 0) throw new UsageError(`the manifest from ${from} is not valid: ${problems.map((p) => `/constants${p.path}: ${p.message}`).join('; ')}`);
  return m;
}

/**
 * Start one adapter: its start error becomes a UsageError (`cannot ...: why`),
 * and its describe answer is checked against the manifest schema unless
 * --manifest gave the manifest; an invalid one closes what was started.
 */
async function started(
  start: () => Promise<{ impl: Implementation; manifest: Manifest }>,
  StartError: abstract new (...args: never[]) => Error,
  cannot: string,
  given: Manifest | undefined,
  describedBy: string,
): Promise<{ impl: Implementation; manifest: Manifest }> {
  let opened: { impl: Implementation; manifest: Manifest };
  try {
    opened = await start();
  } catch (e) {
    if (e instanceof StartError) throw new UsageError(`${cannot}: ${e.message}`);
    throw e;
  }
  try {
    return { impl: opened.impl, manifest: given ?? checkManifest(opened.manifest, describedBy) };
  } catch (e) {
    await opened.impl.close();
    throw e;
  }
}

export async function openImplementation(o: ImplementationOptions): Promise<OpenedImplementation> {
  const chosen = (['module', 'stdio', 'http'] as const).filter((k) => o[k] !== undefined);
  if (o.impl !== undefined && o.impl !== 'reference') throw new UsageError(`--impl takes only "reference", not ${JSON.stringify(o.impl)}`);
  if (chosen.length + (o.impl !== undefined ? 1 : 0) > 1) {
    throw new UsageError(`choose one implementation, not ${[...(o.impl ? ['--impl'] : []), ...chosen.map((k) => `--${k}`)].join(' and ')}`);
  }
  const given = o.manifest !== undefined ? readManifest(o.manifest) : undefined;
  const timeoutMs = o.timeoutMs ?? 5000;
  const which = chosen[0];
  if (which === undefined) {
    const impl = referenceImplementation(given);
    return { impl, manifest: await impl.describe(), adapter: 'reference', target: 'reference' };
  }
  if (which === 'module') {
    const path = o.module!;
    const opened = await started(() => openModuleWorker(path, given), ModuleStartError, `cannot load the module ${path}`, given, `${path} describe()`);
    return { ...opened, adapter: 'module', target: resolve(path) };
  }
  if (which === 'stdio') {
    const command = o.stdio!;
    if (command.trim() === '') throw new UsageError('--stdio needs a command');
    const opened = await started(
      () => openStdio({ command, ...(given ? { manifest: given } : {}), timeoutMs, processes: o.processes ?? o.concurrency ?? 1 }),
      StdioStartError,
      `cannot start ${shellQuote(command)}`,
      given,
      `the describe answer of ${shellQuote(command)}`,
    );
    return { ...opened, adapter: 'stdio', target: command };
  }
  const base = o.http!;
  try {
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    throw new UsageError(`--http needs an http:// or https:// URL, not ${JSON.stringify(base)}`);
  }
  // Loaded only for --http: undici alone costs a few hundred ms of start-up.
  const { HttpStartError, openHttp } = await import('../../adapters/http.js');
  const opened = await started(
    () => openHttp({ base, concurrency: o.concurrency ?? 4, timeoutMs, ...(given ? { manifest: given } : {}) }),
    HttpStartError,
    `cannot reach ${base}`,
    given,
    `GET ${base}/describe`,
  );
  return { ...opened, adapter: 'http', target: base };
}
