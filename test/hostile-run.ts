/**
 * The kit's command line against a hostile peer, measured as the caller sees
 * it: how long until the kit's process exits (or is killed at `limitMs`), its
 * exit status, and its own peak resident set (the implementation's processes
 * are not counted), read at exit by test/fixtures/hostile/peak-rss.mjs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './cli.js';

export interface HostileRun {
  /** null: killed at the limit, or ended by a signal. */
  status: number | null;
  /** The run did not end by itself within the limit. */
  hung: boolean;
  ms: number;
  /** The kit process's peak resident set in MiB: its own count at exit, or (killed) the last VmHWM read while it ran. */
  peakMiB: number | undefined;
  stdout: string;
  stderr: string;
}

export interface HostileOptions {
  limitMs: number;
  env?: Record<string, string>;
  /** Called with the kit's process once it runs (to send it a signal). */
  started?: (pid: number) => void;
}

/** `ctxconform ARGS...` as a child process, killed (with its group) at `limitMs`. */
export function runHostile(args: string[], o: HostileOptions): Promise<HostileRun> {
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-peak-'));
  const peakFile = join(dir, 'peak');
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', join(ROOT, 'test/fixtures/hostile/peak-rss.mjs'), CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: 'true', ...o.env, CTXCONFORM_PEAK_RSS_FILE: peakFile },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  if (child.pid !== undefined) o.started?.(child.pid);
  let polledKiB: number | undefined;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) polledKiB = Number(m[1]);
    } catch {
      // gone
    }
  }, 200);
  return new Promise((resolve) => {
    let hung = false;
    const limit = setTimeout(() => {
      hung = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, o.limitMs);
    // 'exit', not 'close': a grandchild holding the kit's pipes must not stretch the measure.
    child.once('exit', (status) => {
      const ms = performance.now() - t0;
      clearTimeout(limit);
      clearInterval(poll);
      setTimeout(() => {
        const kib = existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) : polledKiB;
        const peakMiB = kib === undefined ? undefined : kib / 1024;
        rmSync(dir, { recursive: true, force: true });
        child.stdout.destroy();
        child.stderr.destroy();
        resolve({ status, hung, ms, peakMiB, stdout, stderr });
      }, 100);
    });
  });
}

/** Whether a process with this id is still running (a zombie counts as ended). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
