// The worker side of adapters/module.ts: loads a vendor's module off the
// runner's thread, so a synchronous hang or a process.exit() in it costs one
// case (the worker is terminated and started again), not the run.
// It always runs compiled (dist/adapters/module-worker.js): a TypeScript loader
// is installed only when the vendor's own module is TypeScript.
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
// The in-process adapter's rules for what a returned or thrown value means, not a copy of them.
import { returnedOutcome, thrownOutcome } from './outcome.js';
import { isStackOverflow, writeJson } from '../protocol/deep-json.js';

const port = parentPort!;
const path = (workerData as { path: string }).path;

function post(message: { id?: number; kind: string; [member: string]: unknown }): void {
  try {
    port.postMessage(message);
  } catch (e) {
    // An answer nested too deep for the structured clone crosses as JSON text (the runner parses it back).
    if (isStackOverflow(e) && message.value !== undefined) {
      const valueJson = writeJson(message.value);
      if (valueJson !== undefined) {
        port.postMessage({ ...message, value: undefined, valueJson });
        return;
      }
    }
    // Functions, symbols and the like cannot cross threads: a vendor's answer must be data.
    port.postMessage({ id: message.id, kind: 'crash', message: `the answer cannot be passed as data: ${e instanceof Error ? e.message : String(e)}` });
  }
}

const describeError = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

interface Source {
  assemble: (request: unknown) => unknown;
  describe?: () => unknown;
}

/** tsx, an optional peer dependency of the kit, for a module written in TypeScript. */
async function typeScriptLoader(): Promise<string | undefined> {
  if (!/\.[cm]?tsx?$/.test(path)) return undefined;
  try {
    const { register } = (await import('tsx/esm/api')) as { register: () => unknown };
    register();
    return undefined;
  } catch (e) {
    return `${path} is TypeScript, and loading it needs tsx (npm install --save-dev tsx): ${describeError(e)}`;
  }
}

async function load(): Promise<Source | string> {
  const missing = await typeScriptLoader();
  if (missing) return missing;
  let mod: { assemble?: unknown; default?: Source };
  try {
    mod = (await import(pathToFileURL(path).href)) as typeof mod;
  } catch (e) {
    return describeError(e);
  }
  const source = typeof mod.assemble === 'function' ? (mod as Source) : mod.default;
  return source && typeof source.assemble === 'function' ? source : 'it does not export an assemble(request) function';
}

const source = await load();
if (typeof source === 'string') {
  post({ kind: 'load-error', message: source });
  process.exit(0);
}

port.on('message', async (m: { id: number; op: 'describe' | 'assemble'; request?: unknown; requestJson?: string }) => {
  try {
    if (m.op === 'describe') {
      if (typeof source.describe !== 'function') return post({ id: m.id, kind: 'no-describe' });
      return post({ id: m.id, kind: 'result', value: await source.describe() });
    }
    const request = m.requestJson !== undefined ? (JSON.parse(m.requestJson) as unknown) : m.request;
    post({ id: m.id, ...returnedOutcome(await source.assemble(request)) });
  } catch (e) {
    post({ id: m.id, ...thrownOutcome(e) });
  }
});
post({ kind: 'ready' });
