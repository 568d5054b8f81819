/**
 * The command line run as a child, with what it cost: its wall time and its
 * peak resident memory (the kernel's high-water mark, written by the child
 * itself as it exits), for the tests that hold an attacker to a stated bound.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './cli.js';

export interface MeasuredRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident set size in MiB; undefined when the child was killed before it could say. */
  peakMiB: number | undefined;
}

/** Written by the child on exit: process.resourceUsage().maxRSS is the high-water mark in KiB. */
const PEAK_HOOK =
  'data:text/javascript,import{writeFileSync}from"node:fs";process.on("exit",()=>writeFileSync(process.env.CTXC_TEST_PEAK_FILE,String(process.resourceUsage().maxRSS)));';

/** `ctxconform ARGS...` to its end, killed after `timeoutMs`; stdout and stderr kept whole up to 4 MiB each. */
export function measuredCli(args: string[], o: { cwd?: string; timeoutMs: number; env?: Record<string, string> }): Promise<MeasuredRun> {
  const dir = mkdtempSync(join(tmpdir(), 'ctxc-peak-'));
  const peakFile = join(dir, 'peak');
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK_HOOK, CLI, ...args], {
    cwd: o.cwd ?? ROOT,
    env: { ...process.env, CI: 'true', CTXC_TEST_PEAK_FILE: peakFile, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (into: { text: string }) => (d: Buffer) => {
    if (into.text.length < 4 << 20) into.text += d.toString('utf8');
  };
  const out = { text: '' };
  const err = { text: '' };
  child.stdout.on('data', keep(out));
  child.stderr.on('data', keep(err));
  const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs);
  return new Promise((done) => {
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      let peakMiB: number | undefined;
      try {
        peakMiB = Number(readFileSync(peakFile, 'utf8')) / 1024;
      } catch {
        peakMiB = undefined;
      }
      rmSync(dir, { recursive: true, force: true });
      done({ status, signal, stdout: out.text, stderr: err.text, ms: performance.now() - t0, peakMiB });
    });
  });
}
