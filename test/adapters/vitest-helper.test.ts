/**
 * conformance/vitest.ts used as a vendor would: the reference module through
 * the in-process adapter (every case runs and passes), and the Python example
 * over stdio (capability and ranked cases are skipped, the core passes).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineConformanceSuite } from '../../cli/vitest.js';

defineConformanceSuite({ module: fileURLToPath(new URL('../../reference/index.ts', import.meta.url)) }, { name: 'reference module', properties: 5, seed: 3 });

if (spawnSync('python3', ['--version']).status === 0) {
  defineConformanceSuite(
    { stdio: `python3 "${fileURLToPath(new URL('../../adapters/examples/python/impl.py', import.meta.url))}"` },
    { name: 'python example' },
  );
}
