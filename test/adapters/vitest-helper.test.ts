/**
 * ctxconform/vitest (cli/vitest.ts) used as a vendor would: the reference
 * module through the in-process adapter (every case runs and passes), named
 * as on the command line and by its transport's typed config, and the Python
 * example over stdio (capability and ranked cases are skipped, the core passes).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineConformanceSuite } from '../../cli/vitest.js';

const referenceModule = fileURLToPath(new URL('../../reference/index.ts', import.meta.url));
defineConformanceSuite({ module: referenceModule }, { name: 'reference module', properties: 5, seed: 3 });
defineConformanceSuite(
  { transport: 'module', config: { path: referenceModule } },
  { name: 'reference module by its config', filter: 'area:expiry,area:tiers' },
);

if (spawnSync('python3', ['--version']).status === 0) {
  defineConformanceSuite(
    { stdio: `python3 "${fileURLToPath(new URL('../../adapters/examples/python/impl.py', import.meta.url))}"` },
    { name: 'python example' },
  );
}
