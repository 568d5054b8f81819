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
import { spawn } from 'node:child_process';
import { readSync } from 'node:fs';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { requestStderrOf } from '../protocol/types.js';
import type { Implementation, Manifest, Outcome, RequestStderr } from '../protocol/types.js';
import { errorOutcome, quote, rawOf } from './outcome.js';
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

export class StdioStartError extends Error {}

const live = new Set<ChildProcessWithoutNullStreams>();

function killGroup(child: ChildProcessWithoutNullStreams): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

// Detached groups outlive the runner unless told; a run that ends early (or is interrupted)
// must not leave them behind. On a signal: kill them, then die of the same signal (unless
// someone else handles it).
process.once('exit', () => {
  for (const c of live) killGroup(c);
});
let signalsHooked = false;
function hookSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      for (const c of live) killGroup(c);
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
  child: ChildProcessWithoutNullStreams;
  exited: boolean;
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
 * request, passed off as its own (seen under load in CI). Read here, before
 * the next request is written, it is counted before that request's window
 * opens. Where the pipe's descriptor is not reachable, the loop's reads alone:
 * false then, and nothing was read.
 */
function drainStderr(proc: Proc): boolean {
  const fd = (proc.child.stderr as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return false;
  if (proc.exited) return true;
  for (;;) {
    let n: number;
    // Nothing waiting is the common case, and it throws (EAGAIN): an error without a stack costs half as much.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      n = readSync(fd, drainBuffer, 0, drainBuffer.length, null);
    } catch {
      return true; // EAGAIN: nothing waiting (or the pipe is gone, which its close reports)
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    if (n <= 0) return true;
    keepStderr(proc, drainBuffer.subarray(0, n)); // keepStderr copies what it keeps
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

  async close(): Promise<void> {
    this.closed = true;
    this.stopTimer();
    const p = this.proc;
    this.proc = undefined;
    for (const q of this.queue.splice(0)) q.settle({ kind: 'crash', message: 'the run was closed' });
    if (!p || p.exited) return;
    // End of input means exit (PROTO-3); kill what does not listen.
    const gone = new Promise<void>((r) => p.child.once('close', () => r()));
    p.child.stdin.end();
    const t = setTimeout(() => killGroup(p.child), 1000);
    await gone;
    clearTimeout(t);
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
    const child = spawn(this.o.command, {
      shell: true,
      cwd: this.o.cwd,
      env: this.o.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so a kill reaches what the shell started too.
      detached: true,
    }) as ChildProcessWithoutNullStreams;
    live.add(child);
    hookSignals();
    const proc: Proc = { child, exited: false, chunks: [], lineBytes: 0, stderrTail: Buffer.alloc(0), stderrTotal: 0, answered: false, written: 0 };
    this.proc = proc;
    child.stdout.on('data', (d: Buffer) => this.onStdout(proc, d));
    child.stderr.on('data', (d: Buffer) => keepStderr(proc, d));
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
      live.delete(child);
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
   * Start the clock on the head request. One timer serves every request: a
   * timer made per answer and cleared at the next cost the kit about 20 us of
   * CPU an answer (2 to 3% of a default run against the reference over
   * stdio), and moving this one only relinks it (refresh). With nothing in
   * flight it may still run out; it then finds no head to time out. It does
   * not hold the process open: while a request is in flight, the child does.
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
      killGroup(old.child);
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
    if (!head) return;
    const partial = proc.lineBytes > 0 ? `; it left a partial answer line ${quote(Buffer.concat(proc.chunks).toString('utf8'))}` : '';
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
