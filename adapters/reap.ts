/**
 * Ending what an implementation started, wherever it went. A process started
 * by the kit runs in its own process group, and killing the group reaches
 * what stays in it; a descendant that left the group (its own session:
 * `setsid sleep 300 &`) is found on Linux through /proc: by walking the
 * children of the process while it lives, and, once it is gone and its
 * descendants have been handed to init, by the mark every process started by
 * the kit carries in its environment (CTXCONFORM_STARTED_BY), which they
 * inherit. A process that is still there after SIGKILL is reported through
 * the sink the command line installs (setUnendedSink), never silently left.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** The environment variable that marks a process (and what it starts) as started by this kit process. */
export const STARTED_BY = 'CTXCONFORM_STARTED_BY';

let seq = 0;
/** A mark for one process about to be started: unique within this kit process, and naming it. */
export function newMark(): string {
  return `${process.pid}.${++seq}`;
}

/** What the /proc file system says of one process: its parent, when it started (clock ticks since boot), whether it has ended (a zombie has). */
function stat(pid: number | 'self'): { ppid: number; startTime: number; ended: boolean } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name is in parentheses and may hold spaces or parentheses itself.
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(rest[1]), startTime: Number(rest[19]), ended: rest[0] === 'Z' || rest[0] === 'X' };
  } catch {
    return undefined;
  }
}

/** This kit process's start: a process started before it cannot be one it started. */
const kitStart = stat('self')?.startTime ?? 0;

function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return []; // not Linux: the process group is all the kit can reach
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').filter(Boolean).join(' ').slice(0, 200);
  } catch {
    return '?';
  }
}

/** Whether a process of this id is running (not ended, not a zombie). */
export function running(pid: number): boolean {
  const s = stat(pid);
  if (s) return !s.ended;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The running processes descended from `root` (walking parents) or carrying
 * one of `marks` in their environment; never this kit process.
 */
export function startedProcesses(root: number | undefined, marks: ReadonlySet<string>): number[] {
  const ids = processIds();
  if (ids.length === 0) return [];
  const parent = new Map<number, number>();
  const since = new Set<number>();
  for (const pid of ids) {
    const s = stat(pid);
    if (!s || s.ended) continue;
    parent.set(pid, s.ppid);
    if (s.startTime >= kitStart) since.add(pid);
  }
  const found = new Set<number>();
  if (root !== undefined) {
    for (const pid of parent.keys()) {
      for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
        if (p === root) {
          found.add(pid);
          break;
        }
      }
    }
  }
  if (marks.size > 0) {
    for (const pid of since) {
      if (pid === process.pid || found.has(pid)) continue;
      let env: string;
      try {
        env = readFileSync(`/proc/${pid}/environ`, 'latin1');
      } catch {
        continue; // another user's process: not one the kit started
      }
      const at = env.indexOf(`${STARTED_BY}=`);
      if (at === -1) continue;
      const end = env.indexOf('\0', at);
      if (marks.has(env.slice(at + STARTED_BY.length + 1, end === -1 ? undefined : end))) found.add(pid);
    }
  }
  found.delete(process.pid);
  return [...found];
}

export interface Unended {
  pid: number;
  command: string;
}

let sink: ((left: Unended[]) => void) | undefined;

/** Where the processes that could not be ended are reported (the command line writes them to stderr). */
export function setUnendedSink(s: ((left: Unended[]) => void) | undefined): void {
  sink = s;
}

/**
 * SIGKILL the process group of `leader` (if any), every process descended from
 * it (while it runs: once it has ended, its id may be another's), every
 * process carrying one of `marks`, and those of `seenBefore` (descendants
 * found while the leader still ran) still running; report those still
 * running afterwards.
 */
export function endStarted(leader: number | undefined, leaderRuns: boolean, marks: ReadonlySet<string>, seenBefore: readonly number[] = []): void {
  // Found before the group is killed: once the leader is gone its children belong to init.
  const others = [...new Set([...startedProcesses(leaderRuns ? leader : undefined, marks), ...seenBefore.filter(running)])];
  if (leader !== undefined) {
    try {
      process.kill(-leader, 'SIGKILL');
    } catch {
      try {
        process.kill(leader, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const pid of others) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile, or not ours to end: checked below
    }
  }
  if (others.length === 0) return;
  // SIGKILL is delivered at once, but a process in an uninterruptible wait ends only when it leaves it.
  const until = Date.now() + 50;
  let left = others.filter(running);
  while (left.length > 0 && Date.now() < until) left = left.filter(running);
  if (left.length > 0) sink?.(left.map((pid) => ({ pid, command: commandOf(pid) })));
}
