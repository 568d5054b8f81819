/**
 * `--module PATH` (SPEC PROTO-2) with the module loaded in a worker thread:
 * the contract is that of the in-process adapter (adapters/inprocess.ts),
 * but a synchronous infinite loop becomes a `timeout` and a process.exit()
 * or an uncaught error a `crash`, each of one case, because the worker is
 * terminated and started again. One request at a time: a worker is one thread.
 */
import { Worker } from 'node:worker_threads';
import { resolve } from 'node:path';
import { packagePath } from '../protocol/package-root.js';
import type { Implementation, Manifest, Outcome } from '../protocol/types.js';
import { isStackOverflow, writeJson } from '../protocol/deep-json.js';

export class ModuleStartError extends Error {}

const STDERR_TAIL = 4096;
/**
 * Added to --timeout for loading the module (and again after its thread was
 * terminated): a load is not a hang (a model to read, TypeScript compiled
 * through tsx on a loaded machine), as a stdio process's start is not.
 */
export const LOAD_ALLOWANCE_MS = 30_000;
/** Closing: how long the thread has to stop before the kit stops waiting for it. */
export const CLOSE_GRACE_MS = 1000;

/** The worker maps an answer to an Outcome itself, with the in-process adapter's rules (adapters/outcome.ts). */
type Reply = { kind: 'ready' } | { kind: 'load-error'; message: string } | ({ id: number } & Answer);

type Answer = Outcome | { kind: 'no-describe'; stderr?: string };

interface Live {
  worker: Worker;
  ready: Promise<void>;
  dead: boolean;
  stderr: string;
}

export class ModuleImplementation implements Implementation {
  private live: Live | undefined;
  private nextId = 1;
  private pending: { id: number; settle: (r: Answer) => void } | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private manifest: Manifest | undefined;

  constructor(
    private readonly path: string,
    manifest?: Manifest,
    /** The deadline of a load: --timeout plus LOAD_ALLOWANCE_MS. */
    private readonly loadMs = 5000 + LOAD_ALLOWANCE_MS,
  ) {
    this.manifest = manifest;
  }

  /** Load the module; throws ModuleStartError when it cannot load, has no assemble, or does not load within its deadline. */
  async open(): Promise<Manifest | undefined> {
    await this.start().ready;
    if (this.manifest) return this.manifest;
    const r = await this.call({ op: 'describe' }, 30_000);
    if (r.kind === 'no-describe') throw new ModuleStartError('the module exports no describe(); give --manifest');
    if (r.kind !== 'result') throw new ModuleStartError(`describe() failed: ${String(r.message)}`);
    this.manifest = r.value as Manifest;
    return this.manifest;
  }

  async describe(): Promise<Manifest> {
    if (!this.manifest) await this.open();
    return this.manifest!;
  }

  async assemble(request: unknown, { timeoutMs }: { timeoutMs: number }): Promise<Outcome> {
    const r = await this.call({ op: 'assemble', request }, timeoutMs);
    // no-describe answers only the describe op.
    return r.kind === 'no-describe' ? { kind: 'protocol', message: 'unexpected worker reply no-describe' } : r;
  }

  async close(): Promise<void> {
    const l = this.live;
    this.live = undefined;
    if (l && !l.dead) {
      l.dead = true;
      // A thread blocked in a native call stops only when the call returns: not waited for past the grace.
      await Promise.race([l.worker.terminate(), new Promise((r) => setTimeout(r, CLOSE_GRACE_MS).unref())]);
    }
  }

  private start(): Live {
    // The compiled worker, also when this file runs as TypeScript source (the tests): no loader to start.
    const worker = new Worker(packagePath('dist', 'adapters', 'module-worker.js'), {
      workerData: { path: resolve(this.path) },
      stderr: true,
      stdout: true,
    });
    let markReady!: () => void;
    let fail!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => {
      markReady = res;
      fail = rej;
    });
    const live: Live = { worker, ready, dead: false, stderr: '' };
    ready.catch(() => {});
    this.live = live;
    // A module that never finishes loading (a loop at its top level, an await that never settles) is ended.
    const loading = setTimeout(() => {
      fail(new ModuleStartError(`it did not finish loading within ${this.loadMs} ms; its thread was terminated`));
      live.dead = true;
      if (this.live === live) this.live = undefined;
      void worker.terminate();
    }, this.loadMs);
    ready.then(
      () => clearTimeout(loading),
      () => clearTimeout(loading),
    );
    // The module's console output is its logs, as stderr is for a process.
    const keep = (d: Buffer): void => {
      live.stderr = (live.stderr + d.toString('utf8')).slice(-STDERR_TAIL);
    };
    worker.stderr.on('data', keep);
    worker.stdout.on('data', keep);
    worker.on('message', (m: Reply) => {
      if (m.kind === 'ready') return markReady();
      if (m.kind === 'load-error') return fail(new ModuleStartError(m.message));
      if (this.pending && 'id' in m && m.id === this.pending.id) {
        const { id: _, ...answer } = m as typeof m & { valueJson?: string };
        // An answer too deep for the structured clone came as JSON text (module-worker.ts).
        if (typeof answer.valueJson === 'string') {
          const { valueJson, ...rest } = answer;
          this.pending.settle({ ...rest, value: JSON.parse(valueJson) as unknown } as Answer);
        } else this.pending.settle(answer);
      }
    });
    const gone = (why: string): void => {
      if (live.dead) return;
      live.dead = true;
      fail(new ModuleStartError(why));
      if (this.live === live) this.live = undefined;
      this.pending?.settle({ kind: 'crash', message: why });
    };
    worker.on('error', (e) => gone(`the module threw outside assemble: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`));
    worker.on('exit', (code) => gone(`the module ended its thread (exit code ${code})`));
    return live;
  }

  /** One request at a time, each against its own clock; with what the module logged meanwhile. */
  private call(body: Record<string, unknown>, timeoutMs: number): Promise<Answer> {
    const run = async (): Promise<Answer> => {
      const live = this.live && !this.live.dead ? this.live : this.start();
      try {
        await live.ready;
      } catch (e) {
        return { kind: 'crash', message: `the module could not be loaded again: ${(e as Error).message}` };
      }
      const id = this.nextId++;
      live.stderr = '';
      const answer = await new Promise<Answer>((settle) => {
        const timer = setTimeout(() => {
          this.pending = undefined;
          live.dead = true;
          if (this.live === live) this.live = undefined;
          void live.worker.terminate();
          settle({ kind: 'timeout', message: `no answer within ${timeoutMs} ms; the module's thread was terminated and is loaded again for the next case` });
        }, timeoutMs);
        this.pending = {
          id,
          settle: (r) => {
            clearTimeout(timer);
            this.pending = undefined;
            settle(r);
          },
        };
        try {
          live.worker.postMessage({ id, ...body });
        } catch (e) {
          // Too deep for the structured clone: the worker parses the JSON text instead (JSON.parse has no depth limit).
          const text = isStackOverflow(e) && 'request' in body ? deepText(body.request) : undefined;
          if (text !== undefined) live.worker.postMessage({ id, op: body.op, requestJson: text });
          else this.pending.settle({ kind: 'crash', message: `the request cannot be passed to the module: ${(e as Error).message}` });
        }
      });
      // Console output crosses from the worker asynchronously: let what was written before the end arrive.
      await new Promise((r) => setImmediate(r));
      return live.stderr ? { ...answer, stderr: live.stderr } : answer;
    };
    const next = this.chain.then(run, run);
    this.chain = next;
    return next;
  }
}

/**
 * A request nested too deep for postMessage, as JSON text that parses back to
 * the same value (-0 as -0.0); undefined when it holds what JSON cannot carry.
 */
function deepText(request: unknown): string | undefined {
  let exact = true;
  const text = writeJson(request, {
    scalar: (v) => {
      if (typeof v === 'bigint' || !Number.isFinite(v)) exact = false;
      return Object.is(v, -0) ? '-0.0' : typeof v === 'number' && Number.isFinite(v) ? JSON.stringify(v) : 'null';
    },
  });
  return exact ? text : undefined;
}

export async function openModuleWorker(path: string, manifest?: Manifest, timeoutMs = 5000): Promise<{ impl: ModuleImplementation; manifest: Manifest }> {
  const impl = new ModuleImplementation(path, manifest, timeoutMs + LOAD_ALLOWANCE_MS);
  try {
    await impl.open();
    return { impl, manifest: await impl.describe() };
  } catch (e) {
    await impl.close();
    throw e;
  }
}
