/** `--module PATH`: an ES module exporting assemble(request) [and describe()], run in a worker thread. */
import { resolve } from 'node:path';
import { StartError } from '../../vocabulary/errors.js';
import { defineTransport } from '../transports.js';

export interface ModuleConfig {
  /** The module's file (TypeScript loads through tsx). */
  path: string;
}

declare module '../transports.js' {
  interface TransportConfigs {
    module: ModuleConfig;
  }
}

export default defineTransport<'module'>({
  name: 'module',
  option: 'module',
  metavar: 'PATH',
  help: 'an ES module exporting assemble(request) [and describe()]',
  key: 'path',
  kind: 'assembler',
  rank: 20,
  // A worker thread answers one request at a time.
  concurrency: 1,
  takesManifest: true,
  describedBy: (target) => `${target} describe()`,
  async open({ path }, { manifest, timeoutMs }) {
    const { ModuleStartError, openModuleWorker } = await import('../../adapters/module.js');
    try {
      return { ...(await openModuleWorker(path, manifest, timeoutMs)), target: resolve(path) };
    } catch (e) {
      if (e instanceof ModuleStartError) throw new StartError(`cannot load the module ${path}: ${e.message}`);
      throw e;
    }
  },
});
