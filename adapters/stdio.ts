/**
 * stdio adapter (SPEC PROTO-3): one long-lived process speaking JSON lines.
 *
 * Requests may be pipelined; the implementation answers in order, so only the
 * oldest unanswered request (the head) runs against the clock: a later request
 * waiting in the pipe is not the implementation's fault. When the head times
 * out or the process dies, the head gets the status, the process is restarted
 * and the requests behind it are sent again, so one bad case costs one case.
 *
 * stderr is a second, unsynchronized stream, so a line cannot be tied to a
 * request for certain. A request's stderr is what the process wrote from the
 * moment the request was written until its answer was read (the last 4 KiB of
 * that). A line written just before the answer can still be on its way then,
 * so for a case that did not pass the runner asks `stderrFor`, which waits for
 * the stream to go quiet before it reads. At concurrency 1 that is the
 * request's own; when other requests were in flight meanwhile the outcome says
 * how many (stderrInFlight) instead of passing their lines off as its.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { requestStderrOf } from '../protocol/types.js';
import type { Implementation, Manifest, Outcome, RequestStderr, UnexpectedAnswers } from '../protocol/types.js';
import { errorOutcome, quote, rawOf } from './outcome.js';
import { STARTED_BY, endStarted, newMark, startedProcesses } from './reap.js';
import { encodeRequest } from './wire.js';

/** Largest answer line read; a longer one is refused without being buffered. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** stderr kept per case (its tail). */
export const STDERR_TAIL_BYTES = 4096;
/**
 * stderr kept per process, so a request's window survives the lines of the
 * requests in flight after it: a window up to this long is cut to its first and
 * last STDERR_TAIL_BYTES / 2, where its own lines and its last words are.
 */
const STDERR_KEPT_BYTES = 64 * 1024;
/** With --manifest there is no describe answer to wait for: a process still alive after this has started. */
const START_GRACE_MS = 1000;
/**
 * Closing: how long a process has to exit once its input ends (PROTO-3) before
 * it is killed, and then how long its pipes have to close before the kit stops
 * reading them and returns, whatever still holds them.
 */
export const CLOSE_GRACE_MS = 1000;
/** Answer lines kept of those that answered no request in flight (the rest are counted). */
const UNEXPECTED_KEPT = 3;

export class StdioStartError extends Error {}

type Child = ChildProcessByStdio<Writable, Readable, Readable | null>;

/** Processes started and not yet seen to end, by their mark. */
const live = new Map<string, Child>();
/** The marks of every process started: what one of them left running is ended with the rest at exit. */
const started = new Set<string>();

/** SIGKILL the process's group and every process it started, even those that left the group. */
function endProcess(mark: string, child: Child, seenBefore: readonly number[] = []): void {
  endStarted(child.pid, child.exitCode === null && child.signalCode === null, new Set([mark]), seenBefore);
}

/** Everything the kit's processes started, still running: at exit, and on a signal. */
function endEverything(): void {
  for (const [mark, c] of live) {
    try {
      if (c.pid !== undefined && c.exitCode === null && c.signalCode === null) process.kill(-c.pid, 'SIGKILL');
    } catch {
      c.kill('SIGKILL');
    }
    live.delete(mark);
  }
  if (started.size > 0) endStarted(undefined, false, started);
}

// Detached groups outlive the runner unless told; a run that ends early (or is interrupted)
// must not leave them behind. On a signal: kill them, then die of the same signal (unless
// someone else handles it).
process.once('exit', endEverything);
let signalsHooked = false;
function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      endEverything();
      process.removeListener(sig, onSignal);
      // Die of the signal unless the command listens for it (cli/interrupt.ts: it writes its reports first).
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    };
    process.once(sig, onSignal);
  }
}

interface Pending {
  id: string;
  line: string;
  settle: (o: Outcome) => void;
  timeoutMs: number;
  /** Byte offset of the process's stderr when this request was written to it. */
  stderrFrom: number;
  /** How many other requests were in flight at some time while this one was. */
  others: number;
}

interface Proc {
  child: Child;
  /** Its stderr: the read end of stderrPipe, or the pipe Node made. */
  stderr: Readable;
  /** The descriptor of stderr's read end, where the kit opened it (stderrPipe). */
  stderrFd?: number;
  /** In its environment (STARTED_BY) and in that of whatever it starts. */
  mark: string;
  exited: boolean;
  /** Its stdout and stderr have closed ('close'): nothing more will be read. */
  pipesClosed: boolean;
  /** Chunks of the line being read. */
  chunks: Buffer[];
  lineBytes: number;
  stderrTail: Buffer;
  stderrTotal: number;
  /** Has written a line: a process that has not is still starting, and its start is not the case's time. */
  answered: boolean;
  /** Requests written to it, so a late read of stderr knows how many joined meanwhile. */
  written: number;
}

/** How long stderr must stay quiet, and how long to wait at most, before a failing case's stderr is read. */
const STDERR_QUIET_MS = 15;
const STDERR_WAIT_MS = 200;

/**
 * Where an answered request's stderr lies, for a later, complete read. Only
 * the numbers of its Pending, not the Pending itself: the weak table keeps
 * what a window holds alive past the young generation, and a Pending holds
 * the request's line and, through its settle, the whole chain awaiting it.
 */
interface StderrWindow {
  proc: Proc;
  pending: Pick<Pending, 'stderrFrom' | 'others'>;
  /** proc.written when the answer was read. */
  writtenThen: number;
}

export interface StdioOptions {
  command: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Skips the describe op. */
  manifest?: Manifest;
  /** For describe and the start check. */
  timeoutMs?: number;
  /** Added to a fresh process's first request; measured on describe when there is one. */
  startAllowanceMs?: number;
}

const delay = <T>(ms: number, value: T): Promise<T> => new Promise((r) => setTimeout(() => r(value), ms).unref());

/**
 * Stop reading a process that is given up on, and let go of the answer line it
 * left half-read: what answered for it (a window, an outcome) may outlive the
 * run's use of the process, and must not keep up to MAX_ANSWER_BYTES alive.
 */
function release(proc: Proc): void {
  proc.chunks = [];
  proc.lineBytes = 0;
  drainStderr(proc);
  proc.child.stdout.destroy();
  proc.stderr.destroy();
}

/** Keep stderr bytes read from the process: counted, and the last STDERR_KEPT_BYTES of them. */
function keepStderr(proc: Proc, d: Buffer): void {
  proc.stderrTotal += d.length;
  const joined = Buffer.concat([proc.stderrTail, d.length > STDERR_KEPT_BYTES ? d.subarray(d.length - STDERR_KEPT_BYTES) : d]);
  proc.stderrTail = joined.length > STDERR_KEPT_BYTES ? joined.subarray(joined.length - STDERR_KEPT_BYTES) : joined;
}

const drainBuffer = Buffer.alloc(64 * 1024);

/**
 * Read now what waits in the process's stderr pipe. The event loop reads the
 * pipes in its own order: an answer can be read before the log line written
 * just before it, and that line would then land in the window of the next
 * request, passed off as its own (a loaded machine does this). Read here, before
 * the next request is written, it is counted before that request's window
 * opens. Where the kit holds no descriptor of the pipe (stderrPipe could not
 * make one), the loop's reads alone: false then, and nothing was read.
 */
function drainStderr(proc: Proc): boolean {
  // Once the stream is destroyed its descriptor is closed, and the number may be another file's.
  if (proc.stderrFd === undefined || proc.stderr.destroyed) return false;
  for (;;) {
    let n: number;
    // Nothing waiting is the common case, and it throws (EAGAIN): an error without a stack is cheaper to make.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      n = readSync(proc.stderrFd, drainBuffer, 0, drainBuffer.length, null);
    } catch {
      return true; // EAGAIN: nothing waiting (or the pipe is gone, which its end reports)
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    if (n <= 0) return true;
    keepStderr(proc, drainBuffer.subarray(0, n)); // keepStderr copies what it keeps
  }
}

/** Named pipes made and not yet used, in a folder of the kit's own (removed at exit). */
const fifos: string[] = [];
let fifoFolder: string | undefined;
let fifoCount = 0;
/** Made at a time: a process start takes one, and making them costs a process of its own (mkfifo). */
const FIFO_BATCH = 32;

function makeFifos(): boolean {
  if (fifoFolder === undefined) {
    const folder = mkdtempSync(join(tmpdir(), 'ctxconform-stderr-'));
    fifoFolder = folder;
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  const paths = Array.from({ length: FIFO_BATCH }, () => join(fifoFolder!, String(++fifoCount)));
  if (spawnSync('mkfifo', ['-m', '600', ...paths], { stdio: 'ignore' }).status !== 0) return false;
  fifos.push(...paths);
  return true;
}

let fifosUnavailable = process.platform === 'win32';

/**
 * A pipe for a process's stderr whose read end the kit opened itself, so that
 * it holds the descriptor drainStderr reads (a pipe Node makes for a child
 * keeps its descriptor private): a named pipe, opened at both ends and
 * unlinked at once. Undefined where none can be made (no mkfifo, Windows):
 * the child then gets a plain pipe.
 */
function stderrPipe(): { read: number; write: number } | undefined {
  if (fifosUnavailable) return undefined;
  try {
    if (fifos.length === 0 && !makeFifos()) fifosUnavailable = true;
  } catch {
    fifosUnavailable = true;
  }
  const path = fifos.pop();
  if (path === undefined) return undefined;
  let read: number | undefined;
  try {
    // Read end first and non-blocking, so that opening the write end (blocking, as a child's stderr should be) returns at once.
    read = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    return { read, write: openSync(path, constants.O_WRONLY) };
  } catch {
    if (read !== undefined) closeSync(read);
    return undefined;
  } finally {
    rmSync(path, { force: true });
  }
}

export class StdioImplementation implements Implementation {
  private proc: Proc | undefined;
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  /** What the timer was set for, and the request it times (undefined: none, it runs out unheeded). */
  private timerLimit = 0;
  private timedHead: Pending | undefined;
  private closed = false;
  /** Answered requests' stderr windows, for stderrFor. */
  private readonly windows = new WeakMap<Outcome, StderrWindow>();
  /** Ids given up on (timed out, refused): a late answer for one is dropped, not blamed on the next. */
  private readonly settledIds = new Set<string>();
  /** Answer lines for requests already answered: a fault of the run (PROTO-3, one answer per request). */
  private readonly unexpected: UnexpectedAnswers = { count: 0, lines: [] };
  private manifest: Manifest | undefined;
  /** Added to the first request's limit on a fresh process: three times the measured start, at least 1 s. */
  private startAllowanceMs: number;

  constructor(private readonly o: StdioOptions) {
    this.manifest = o.manifest;
    this.startAllowanceMs = o.startAllowanceMs ?? 5000;
  }

  /** What a copy of this implementation needs to start without asking describe again. */
  get startOptions(): StdioOptions {
    return { ...this.o, ...(this.manifest ? { manifest: this.manifest } : {}), startAllowanceMs: this.startAllowanceMs };
  }

  /** Start the process and read its manifest; throws StdioStartError when it cannot start. */
  async open(): Promise<Manifest> {
    const timeoutMs = this.o.timeoutMs ?? 5000;
    if (this.manifest) {
      // No describe to wait for: give the process a moment to fail at start (command not found).
      const proc = this.start();
      await new Promise((r) => setTimeout(r, START_GRACE_MS));
      if (proc.exited) throw new StdioStartError(`the command exited at start${this.exitDetail(proc)}`);
      return this.manifest;
    }
    const t0 = performance.now();
    // A slow start (a JVM, a model load) is not a hang: describe gets the start allowance on top.
    const outcome = await this.send('describe', timeoutMs);
    this.startAllowanceMs = Math.max(1000, Math.min(30_000, 3 * (performance.now() - t0)));
    if (outcome.kind !== 'result') {
      const why = outcome.kind === 'error' ? `an error answer: ${String(outcome.message)}` : outcome.message;
      await this.close();
      throw new StdioStartError(`describe failed: ${why}${outcome.stderr ? `\nstderr:\n${outcome.stderr}` : ''}`);
    }
    this.manifest = outcome.value as Manifest;
    return this.manifest;
  }

  async describe(): Promise<Manifest> {
    return this.manifest ?? (await this.open());
  }

  assemble(request: unknown, { timeoutMs }: { timeoutMs: number }): Promise<Outcome> {
    const wire = encodeRequest(request);
    if (!wire.ok) return Promise.resolve({ kind: 'unsendable', message: wire.reason });
    return this.send('assemble', timeoutMs, wire.json);
  }

  /** The answer lines that answered a request already answered, if any came. */
  unexpectedAnswers(): UnexpectedAnswers | undefined {
    return this.unexpected.count > 0 ? { count: this.unexpected.count, lines: [...this.unexpected.lines] } : undefined;
  }

  /**
   * End of input, then CLOSE_GRACE_MS for the process to exit before it is
   * killed with all it started; then CLOSE_GRACE_MS for its pipes to close
   * before they are let go of. It returns within twice CLOSE_GRACE_MS
   * whatever the process does.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.stopTimer();
    const p = this.proc;
    this.proc = undefined;
    for (const q of this.queue.splice(0)) q.settle({ kind: 'crash', message: 'the run was closed' });
    if (!p) return;
    const child = p.child;
    let descendants: number[] = [];
    if (!p.exited && child.exitCode === null && child.signalCode === null) {
      // Its descendants while it still runs: once it exits, init is their parent, and one that cleared its environment has no mark.
      descendants = child.pid === undefined ? [] : startedProcesses(child.pid, new Set());
      // End of input means exit (PROTO-3); kill what does not listen.
      const exited = new Promise<boolean>((r) => child.once('exit', () => r(true)));
      child.stdin.end();
      await Promise.race([exited, delay(CLOSE_GRACE_MS, false)]);
    }
    // What did not exit is killed, and what it left behind (a daemon of its own, a grandchild holding its pipes) too.
    endProcess(p.mark, child, descendants);
    live.delete(p.mark);
    if (!p.pipesClosed) await Promise.race([new Promise<void>((r) => child.once('close', () => r())), delay(CLOSE_GRACE_MS, undefined)]);
    release(p);
  }

  /** `requestJson` is the request as adapters/wire.ts encoded it, placed in the envelope unchanged. */
  private send(op: 'describe' | 'assemble', timeoutMs: number, requestJson?: string): Promise<Outcome> {
    if (this.closed) return Promise.resolve({ kind: 'crash', message: 'the run was closed' });
    const id = String(this.nextId++);
    const line = `{"id":"${id}","op":"${op}"${requestJson === undefined ? '' : `,"request":${requestJson}`}}\n`;
    return new Promise<Outcome>((settle) => {
      const p: Pending = { id, line, settle, timeoutMs, stderrFrom: 0, others: 0 };
      const proc = this.proc && !this.proc.exited ? this.proc : this.start();
      this.enqueue(proc, p);
      this.write(proc, line);
      if (this.queue.length === 1) this.armHead();
    });
  }

  private start(): Proc {
    const mark = newMark();
    const pipe = stderrPipe();
    let child: Child;
    try {
      child = spawn(this.o.command, {
        shell: true,
        cwd: this.o.cwd,
        env: { ...(this.o.env ?? process.env), [STARTED_BY]: mark },
        stdio: ['pipe', 'pipe', pipe ? pipe.write : 'pipe'],
        // Its own process group, so a kill reaches what the shell started too.
        detached: true,
      }) as Child;
    } finally {
      // The child has its copy of the write end; the kit's would keep the pipe open past the child's end.
      if (pipe) closeSync(pipe.write);
    }
    const stderr: Readable = pipe ? new Socket({ fd: pipe.read, readable: true, writable: false }) : child.stderr!;
    live.set(mark, child);
    started.add(mark);
    hookSignals();
    const proc: Proc = {
      child,
      stderr,
      ...(pipe ? { stderrFd: pipe.read } : {}),
      mark,
      exited: false,
      pipesClosed: false,
      chunks: [],
      lineBytes: 0,
      stderrTail: Buffer.alloc(0),
      stderrTotal: 0,
      answered: false,
      written: 0,
    };
    this.proc = proc;
    child.stdout.on('data', (d: Buffer) => this.onStdout(proc, d));
    stderr.on('data', (d: Buffer) => keepStderr(proc, d));
    stderr.on('error', () => {}); // a pipe that breaks ends with the process, whose exit is the message
    // A broken pipe: usually the process is exiting, and its exit (with the code) is the better
    // message; a process that closed its input but lives on is a crash of its own.
    child.stdin.on('error', (e: NodeJS.ErrnoException) => {
      setTimeout(() => {
        if (proc.exited || proc !== this.proc) return;
        const head = this.queue[0];
        if (head)
          this.settleHead({
            kind: 'crash',
            message: `the process closed its input (${e.code ?? e.message}) and cannot be asked; restarted`,
            ...this.withStderr(proc, head),
          });
        this.restart(proc);
      }, 100);
    });
    child.on('error', (e) => this.onExit(proc, `could not run: ${e.message}`));
    // 'close', not 'exit': an answer written just before exiting is still read.
    child.on('close', (code, signal) => {
      proc.pipesClosed = true;
      live.delete(mark);
      this.onExit(proc, signal ? `was killed by ${signal}` : `exited with code ${code}`);
    });
    return proc;
  }

  /** Add a request to those in flight on `proc`, counting it as company for each of them; it is written next. */
  private enqueue(proc: Proc, p: Pending): void {
    for (const q of this.queue) q.others++;
    p.others = this.queue.length;
    // What the process wrote to stderr before this request reaches it is not this request's,
    // except for its first request: what a fresh process says while starting (a missing
    // command, a failed load) explains that request's failure.
    if (proc.written === 0) p.stderrFrom = 0;
    else {
      drainStderr(proc);
      p.stderrFrom = proc.stderrTotal;
    }
    this.queue.push(p);
  }

  private write(proc: Proc, line: string): void {
    if (proc.exited || !proc.child.stdin.writable) return;
    proc.written++;
    proc.child.stdin.write(line);
  }

  /** What the process wrote to stderr since byte `from`, at most STDERR_TAIL_BYTES of it (and a line saying what was left out). */
  private stderrSince(proc: Proc | undefined, from: number): string | undefined {
    if (!proc) return undefined;
    const size = proc.stderrTotal - from;
    if (size <= 0) return undefined;
    const tail = proc.stderrTail;
    if (size <= STDERR_TAIL_BYTES) return tail.subarray(tail.length - size).toString('utf8');
    // Its start is gone: the last words.
    if (size > tail.length) return tail.subarray(tail.length - STDERR_TAIL_BYTES).toString('utf8');
    const half = STDERR_TAIL_BYTES / 2;
    const window = tail.subarray(tail.length - size);
    return `${window.subarray(0, half).toString('utf8')}\n[... ${size - 2 * half} bytes of stderr left out ...]\n${window.subarray(size - half).toString('utf8')}`;
  }

  private exitDetail(proc: Proc): string {
    const err = this.stderrSince(proc, 0);
    return `${proc.child.exitCode !== null ? ` (code ${proc.child.exitCode})` : ''}${err ? `; stderr: ${err.trim().slice(-1000)}` : ''}`;
  }

  /**
   * Start the clock on the head request. One timer serves every request and
   * is moved (refresh, which only relinks it) rather than made per answer:
   * answers come at the rate of the implementation, and a timer per answer is
   * work the kit does for each of them. With nothing in flight it may still
   * run out; it then finds no head to time out. It does not hold the process
   * open: while a request is in flight, the child does.
   */
  private armHead(): void {
    const head = this.queue[0];
    this.timedHead = head;
    if (!head) return;
    const limit = head.timeoutMs + (this.proc && !this.proc.answered ? this.startAllowanceMs : 0);
    if (this.timer !== undefined && this.timerLimit === limit) {
      this.timer.refresh();
      return;
    }
    this.stopTimer();
    this.timerLimit = limit;
    this.timer = setTimeout(() => this.onHeadTimeout(), limit).unref();
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private onHeadTimeout(): void {
    const head = this.timedHead;
    if (!head || this.queue[0] !== head) return;
    const proc = this.proc;
    this.settleHead({
      kind: 'timeout',
      message: `no answer within ${head.timeoutMs} ms; the process was killed and restarted`,
      ...this.withStderr(proc, head),
    });
    this.restart(proc);
  }

  private withStderr(proc: Proc | undefined, p: Pick<Pending, 'stderrFrom' | 'others'>, joinedLater = 0): RequestStderr {
    const s = this.stderrSince(proc, p.stderrFrom);
    if (!s) return {};
    const n = p.others + joinedLater;
    return n === 0 ? { stderr: s } : { stderr: s, stderrInFlight: n };
  }

  private settleHead(o: Outcome): void {
    const head = this.queue.shift();
    if (!head) return;
    this.settledIds.add(head.id);
    head.settle(o);
  }

  /** Kill the process (if alive) and send the waiting requests to a fresh one. */
  private restart(old: Proc | undefined): void {
    if (old && !old.exited) {
      old.exited = true;
      endProcess(old.mark, old.child);
      live.delete(old.mark);
      release(old);
    }
    if (this.proc === old) this.proc = undefined;
    if (this.closed || this.queue.length === 0) {
      this.stopTimer();
      return;
    }
    const proc = this.start();
    const waiting = this.queue.splice(0);
    for (const p of waiting) {
      this.enqueue(proc, p);
      this.write(proc, p.line);
    }
    this.armHead();
  }

  private onExit(proc: Proc, how: string): void {
    if (proc.exited) return;
    proc.exited = true;
    if (proc !== this.proc) return;
    this.proc = undefined;
    const head = this.queue[0];
    if (!head) {
      release(proc);
      return;
    }
    const partial = proc.lineBytes > 0 ? `; it left a partial answer line ${quote(Buffer.concat(proc.chunks).toString('utf8'))}` : '';
    release(proc);
    this.settleHead({ kind: 'crash', message: `the process ${how} before answering${partial}`, ...this.withStderr(proc, head) });
    this.restart(undefined);
  }

  private onStdout(proc: Proc, data: Buffer): void {
    if (proc !== this.proc || proc.exited) return;
    let start = 0;
    while (start < data.length) {
      const nl = data.indexOf(10, start);
      const end = nl === -1 ? data.length : nl;
      const piece = data.subarray(start, end);
      if (proc.lineBytes + piece.length > MAX_ANSWER_BYTES) {
        // Refused unread; the rest of the line could take long to drain, so the process is replaced.
        const head = this.queue[0];
        if (head)
          this.settleHead({
            kind: 'protocol',
            message: `answer line longer than ${MAX_ANSWER_BYTES} bytes; refused unread, the process was restarted`,
            ...this.withStderr(proc, head),
          });
        this.restart(proc);
        return;
      }
      proc.chunks.push(piece);
      proc.lineBytes += piece.length;
      if (nl !== -1) {
        // One chunk (the usual case) is decoded in place; more are joined first.
        const line = proc.chunks.length === 1 ? proc.chunks[0]!.toString('utf8') : Buffer.concat(proc.chunks).toString('utf8');
        proc.chunks = [];
        proc.lineBytes = 0;
        this.onLine(proc, line);
        if (proc !== this.proc) return;
      }
      start = end + 1;
    }
  }

  private onLine(proc: Proc, raw: string): void {
    proc.answered = true;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      msg = undefined;
    }
    const head = this.queue[0];
    const isObject = typeof msg === 'object' && msg !== null && !Array.isArray(msg);
    if (!isObject) {
      if (!head) return;
      this.settleHead({ kind: 'protocol', message: `answer is not a JSON object: ${quote(line)}`, raw: rawOf(line), ...this.withStderr(proc, head) });
      this.armHead();
      return;
    }
    const m = msg as { id?: unknown; ok?: unknown; error?: unknown };
    const id = typeof m.id === 'string' || typeof m.id === 'number' ? String(m.id) : undefined;
    const at = id === undefined ? -1 : this.queue.findIndex((p) => p.id === id);
    if (at === -1) {
      if (id !== undefined && this.settledIds.has(id)) return;
      if (id !== undefined && this.wasSent(id)) {
        // A second answer to a request already answered: not the next request's answer, and not nothing.
        this.unexpected.count++;
        if (this.unexpected.lines.length < UNEXPECTED_KEPT) this.unexpected.lines.push(quote(line));
        return;
      }
      if (!head) return;
      this.settleHead({
        kind: 'protocol',
        message: `answer id ${JSON.stringify(m.id)} does not match the request id "${head.id}": ${quote(line)}`,
        raw: rawOf(line),
        ...this.withStderr(proc, head),
      });
      this.armHead();
      return;
    }
    const p = this.queue.splice(at, 1)[0]!;
    if (at === 0) this.armHead();
    const stderr = this.withStderr(proc, p);
    let outcome: Outcome;
    if ('ok' in m) outcome = { kind: 'result', value: m.ok, ...stderr };
    else if ('error' in m) outcome = { ...errorOutcome({ error: m.error }, m.error), ...stderr };
    else outcome = { kind: 'protocol', message: `answer has neither "ok" nor "error": ${quote(line)}`, raw: rawOf(line), ...stderr };
    this.windows.set(outcome, { proc, pending: { stderrFrom: p.stderrFrom, others: p.others }, writtenThen: proc.written });
    p.settle(outcome);
  }

  /** An id this adapter gave a request (ids count up from 1). */
  private wasSent(id: string): boolean {
    const n = Number(id);
    return Number.isInteger(n) && n >= 1 && n < this.nextId && String(n) === id;
  }

  /**
   * The stderr of an answered request, read once the stream has been quiet
   * for a moment (at most STDERR_WAIT_MS): lines written just before the
   * answer may arrive after it. A timeout or a crash already has all of it.
   */
  async stderrFor(outcome: Outcome): Promise<RequestStderr> {
    const w = this.windows.get(outcome);
    if (!w) return requestStderrOf(outcome);
    const until = performance.now() + STDERR_WAIT_MS;
    let seen = -1;
    while (seen !== w.proc.stderrTotal && performance.now() < until && !w.proc.exited) {
      seen = w.proc.stderrTotal;
      await new Promise((r) => setTimeout(r, STDERR_QUIET_MS));
      // Timers run before the loop polls its pipes: after a stall (a loaded machine) stderr
      // written long ago may still wait unread, so read it before judging the stream quiet;
      // where the pipe cannot be read here, let the loop poll it once.
      if (!drainStderr(w.proc)) await new Promise((r) => setImmediate(r));
    }
    return this.withStderr(w.proc, w.pending, w.proc.written - w.writtenThen);
  }
}

/**
 * Up to `size` copies of the command, each a StdioImplementation: a request
 * goes to the copy with the fewest in flight, and a copy is started only when
 * every running one is busy. A request that hangs then holds up its own copy
 * for --timeout, not every request queued behind it in one pipe, so hangs
 * overlap instead of adding up. (REQ-2 makes the copies interchangeable.)
 */
export class StdioPool implements Implementation {
  private readonly members: StdioImplementation[];
  private readonly busy: number[] = [0];
  private readonly answeredBy = new WeakMap<Outcome, StdioImplementation>();

  constructor(
    first: StdioImplementation,
    private readonly size: number,
  ) {
    this.members = [first];
  }

  describe(): Promise<Manifest> {
    return this.members[0]!.describe();
  }

  async assemble(request: unknown, options: { timeoutMs: number }): Promise<Outcome> {
    let i = this.busy.indexOf(Math.min(...this.busy));
    if (this.busy[i]! > 0 && this.members.length < this.size) {
      this.members.push(new StdioImplementation(this.members[0]!.startOptions));
      this.busy.push(0);
      i = this.members.length - 1;
    }
    this.busy[i]!++;
    try {
      const outcome = await this.members[i]!.assemble(request, options);
      this.answeredBy.set(outcome, this.members[i]!);
      return outcome;
    } finally {
      this.busy[i]!--;
    }
  }

  stderrFor(outcome: Outcome): Promise<RequestStderr> {
    return this.answeredBy.get(outcome)?.stderrFor(outcome) ?? Promise.resolve(requestStderrOf(outcome));
  }

  unexpectedAnswers(): UnexpectedAnswers | undefined {
    const each = this.members.map((m) => m.unexpectedAnswers()).filter((u) => u !== undefined);
    if (each.length === 0) return undefined;
    return { count: each.reduce((n, u) => n + u.count, 0), lines: each.flatMap((u) => u.lines).slice(0, UNEXPECTED_KEPT) };
  }

  async close(): Promise<void> {
    await Promise.all(this.members.map((m) => m.close()));
  }
}

/**
 * Start a stdio implementation (a pool of up to `processes` copies, default 1);
 * throws StdioStartError with the reason when the first cannot start.
 */
export async function openStdio(o: StdioOptions & { processes?: number }): Promise<{ impl: StdioImplementation | StdioPool; manifest: Manifest }> {
  const { processes = 1, ...options } = o;
  const first = new StdioImplementation(options);
  const manifest = await first.open();
  return { impl: processes > 1 ? new StdioPool(first, processes) : first, manifest };
}
