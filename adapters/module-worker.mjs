// The worker side of adapters/module.ts: loads a vendor's module off the
// runner's thread, so a synchronous hang or a process.exit() in it costs one
// case (the worker is terminated and started again), not the run.
// Plain JavaScript: it must start without a TypeScript loader, then installs one.
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
// The in-process adapter's rules for what a returned or thrown value means, not a copy of them.
const { returnedOutcome, thrownOutcome } = await import('./outcome.ts');

function post(message) {
  try {
    parentPort.postMessage(message);
  } catch (e) {
    // Functions, symbols and the like cannot cross threads: a vendor's answer must be data.
    parentPort.postMessage({ id: message.id, kind: 'crash', message: `the answer cannot be passed as data: ${e instanceof Error ? e.message : String(e)}` });
  }
}

let source;
try {
  const mod = await import(pathToFileURL(workerData.path).href);
  source = typeof mod.assemble === 'function' ? mod : mod.default;
} catch (e) {
  post({ kind: 'load-error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  process.exit(0);
}
if (!source || typeof source.assemble !== 'function') {
  post({ kind: 'load-error', message: 'it does not export an assemble(request) function' });
  process.exit(0);
}

parentPort.on('message', async (m) => {
  try {
    if (m.op === 'describe') {
      if (typeof source.describe !== 'function') return post({ id: m.id, kind: 'no-describe' });
      return post({ id: m.id, kind: 'result', value: await source.describe() });
    }
    post({ id: m.id, ...returnedOutcome(await source.assemble(m.request)) });
  } catch (e) {
    post({ id: m.id, ...thrownOutcome(e) });
  }
});
post({ kind: 'ready' });
