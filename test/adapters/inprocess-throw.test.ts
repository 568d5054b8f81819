/** PROTO-2: what a thrown value means, in process and in the --module worker. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { openModuleWorker } from '../../adapters/module.js';

const throwing = (value: unknown) => () => {
  throw value;
};
const opts = { timeoutMs: 2000 };

describe('a value thrown by assemble', () => {
  it('a plain object with a code is an error answer', async () => {
    const o = await fromFunctions(throwing({ code: 'invalid_request', message: 'bad budget' })).assemble({}, opts);
    expect(o).toMatchObject({ kind: 'error', code: 'invalid_request', message: 'bad budget' });
  });

  it('an Error carrying a protocol code is an error answer', async () => {
    const e = Object.assign(new Error('pins too big'), { code: 'pinned_overflow' });
    expect(await fromFunctions(throwing(e)).assemble({}, opts)).toMatchObject({ kind: 'error', code: 'pinned_overflow' });
  });

  it('a runtime error with a system code (ENOENT) is a crash, not a malformed error answer', async () => {
    const e = Object.assign(new Error("ENOENT: no such file, open 'weights.bin'"), { code: 'ENOENT' });
    const o = await fromFunctions(throwing(e)).assemble({}, opts);
    expect(o.kind).toBe('crash');
    expect(o.kind === 'crash' && o.message).toContain('ENOENT');
  });

  it('the --module worker applies the same rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxc-throw-'));
    const file = join(dir, 'impl.mjs');
    writeFileSync(
      file,
      `import { readFileSync } from 'node:fs';
       export function assemble(req) {
         if (req.kind === 'fs') readFileSync('/nonexistent/ctxconform');
         throw { code: 'invalid_request', message: 'no' };
       }
       export function describe() { return { name: 't', version: '1', profiles: ['tiered'], capabilities: [] }; }`,
    );
    const { impl } = await openModuleWorker(file);
    try {
      expect((await impl.assemble({ kind: 'fs' }, opts)).kind).toBe('crash');
      expect(await impl.assemble({ kind: 'plain' }, opts)).toMatchObject({ kind: 'error', code: 'invalid_request' });
    } finally {
      await impl.close();
    }
  });
});
