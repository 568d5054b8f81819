/**
 * `--module` and the reference through openImplementation: what a vendor's
 * ES module must export, and the usage errors when it does not.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { StartError } from '../../vocabulary/errors.js';
import { openImplementation } from '../../running/open.js';
import { runSuite } from '../../running/run.js';
import { FAULT_CASES } from '../fixtures/faulty/cases.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-module-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
};

describe('openImplementation', () => {
  it('defaults to the reference, which declares both profiles and every capability', async () => {
    const o = await openImplementation({ transport: 'reference', config: {} });
    expect(o.adapter).toBe('reference');
    expect(o.manifest.profiles).toEqual(['tiered', 'ranked']);
    expect([...o.manifest.capabilities].sort()).toEqual(['constraints', 'lifecycle', 'omission_markers', 'pinned', 'working_context']);
  });

  it('loads a module with assemble and describe; a thrown {code} is an error answer', async () => {
    const mod = file(
      'ok.mjs',
      `export const describe = () => ({ name: 'm', version: '1', profiles: ['tiered'], capabilities: [] });
       export function assemble(r) { if (r.budget < 0) throw { code: 'invalid_request', message: 'negative' }; ` +
        `return { context: '', included: [], estimated_tokens: 0, total_budget: r.budget, omissions: [] }; }`,
    );
    const o = await openImplementation({ transport: 'module', config: { path: mod } });
    expect(o).toMatchObject({ adapter: 'module', target: mod, manifest: { name: 'm' } });
    expect(await o.impl.assemble({ budget: -1 }, { timeoutMs: 5000 })).toMatchObject({ kind: 'error', code: 'invalid_request', message: 'negative' });
  });

  it('start errors: no assemble export, no describe without --manifest, a module that throws on import', async () => {
    await expect(openImplementation({ transport: 'module', config: { path: file('none.mjs', 'export const x = 1;') } })).rejects.toThrow(
      /does not export an assemble\(request\) function/,
    );
    const err = await openImplementation({ transport: 'module', config: { path: file('nodesc.mjs', 'export const assemble = () => ({});') } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toMatch(/the module exports no describe\(\); give --manifest/);
    await expect(openImplementation({ transport: 'module', config: { path: file('boom.mjs', 'throw new Error("missing native addon");') } })).rejects.toThrow(
      /cannot load the module .*missing native addon/,
    );
    await expect(openImplementation({ transport: 'module', config: { path: join(tmp, 'absent.mjs') } })).rejects.toBeInstanceOf(StartError);
  });

  it('--manifest replaces describe and is checked against the manifest schema', async () => {
    const mod = fileURLToPath(new URL('../../reference/index.ts', import.meta.url));
    const good = file('good.json', JSON.stringify({ name: 'r', version: '1', profiles: ['tiered'], capabilities: ['pinned'] }));
    expect((await openImplementation({ transport: 'module', config: { path: mod }, manifest: good })).manifest.capabilities).toEqual(['pinned']);
    const bad = file('bad.json', JSON.stringify({ name: 'r', version: '1', profiles: ['fancy'], capabilities: [] }));
    await expect(openImplementation({ transport: 'module', config: { path: mod }, manifest: bad })).rejects.toThrow(
      /bad.json is not valid: \/profiles\/0: must be equal to one of the allowed values/,
    );
  });

  it('isolates the module in a worker: a sync hang is a timeout, process.exit a crash, and the run goes on', async () => {
    // A JavaScript module imports the compiled kit, as a vendor's does (no TypeScript loader is installed for it).
    const reference = fileURLToPath(new URL('../../dist/reference/index.js', import.meta.url));
    // Misbehaves by budget: 10 loops forever (after a log line, kept as stderr), 0 exits the thread.
    const mod = file(
      'faulty.mjs',
      `import { assemble as ref, describe as d } from ${JSON.stringify(reference)};
       export const describe = () => ({ ...d(), capabilities: [] });
       export function assemble(r) {
         if (r.budget === 10) { console.error('spinning'); for (;;) {} }
         if (r.budget === 0) process.exit(7);
         return ref(r, { capabilities: [] });
       }`,
    );
    // Long enough that a loaded CI machine does not turn a slow answer (or a restarted worker's load) into a timeout.
    const o = await openImplementation({ transport: 'module', config: { path: mod }, timeoutMs: 2000 });
    try {
      const r = await runSuite({ cases: FAULT_CASES, impl: o.impl, manifest: o.manifest, timeoutMs: 2000, concurrency: 1, properties: 0, seed: 1 });
      const by = Object.fromEntries(r.cases.map((c) => [c.id, c]));
      expect(by['fault/a-single']!.status).toBe('pass');
      expect(by['fault/b-expired']!.status).toBe('pass');
      expect(by['fault/c-budget']).toMatchObject({ status: 'timeout', stderr: 'spinning\n' });
      expect(by['fault/d-order']!.status).toBe('pass');
      expect(by['fault/e-invalid']!.status).toBe('pass');
      expect(by['fault/f-empty']).toMatchObject({ status: 'crash', message: expect.stringMatching(/exit code 7/) });
    } finally {
      await o.impl.close();
    }
  });
});
