/**
 * The tests' one way to run the command line: the compiled CLI (bin/ctxconform.mjs
 * runs dist/, which `npm test` builds first), as a vendor runs it.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(ROOT, 'bin/ctxconform.mjs');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Where it runs (default: the repository root). */
  cwd?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  input?: string;
  /** Milliseconds before the run is killed (spawnSync's `timeout`; `status` is then null). */
  timeout?: number;
}

/** `ctxconform ARGS...` to its end, from the repository root. */
export function cli(...args: string[]): CliRun {
  return cliWith({}, ...args);
}

export function cliWith(options: CliOptions, ...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', ...options.env },
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `ctxconform ARGS...` started in the background (a server, a run to interrupt). */
export function cliSpawn(args: string[], options: CliOptions = {}): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, CI: 'true', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A shell command line that runs the CLI, for pipes (`ctxconform list | head -1`). */
export const CLI_SHELL = `"${process.execPath}" "${CLI}"`;
