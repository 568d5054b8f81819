/**
 * Every command the kit prints begins with the invocation that runs this kit
 * from the folder the user ran in (cli/invocation.ts): `npx ctxconform` only
 * where npm resolves it to this checkout, never a bare registry name that can
 * resolve to someone else's package.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kitCommand } from '../../cli/invocation.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-invocation-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A kit folder (a package.json and its bin) and the folders around it. */
const kit = join(tmp, 'work', 'kit');
mkdirSync(join(kit, 'bin'), { recursive: true });
mkdirSync(join(kit, 'docs'));
writeFileSync(join(kit, 'package.json'), '{"name":"ctxconform"}');
writeFileSync(join(kit, 'bin', 'ctxconform.mjs'), '');

describe('the invocation printed before a command', () => {
  it('is npx ctxconform in the kit folder and in a folder below it, where npm runs the package’s own bin', () => {
    expect(kitCommand(kit, kit)).toBe('npx ctxconform');
    expect(kitCommand(join(kit, 'docs'), kit)).toBe('npx ctxconform');
  });

  it('is npx ctxconform in a project that depends on the kit (node_modules/ctxconform is it)', () => {
    const project = join(tmp, 'work', 'project');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{"name":"vendor"}');
    symlinkSync(kit, join(project, 'node_modules', 'ctxconform'));
    expect(kitCommand(project, kit)).toBe('npx ctxconform');
  });

  it("is the kit's own bin with node in a vendor's repository beside it (a package.json of its own), relative when near", () => {
    const vendor = join(tmp, 'work', 'vendor');
    mkdirSync(vendor, { recursive: true });
    writeFileSync(join(vendor, 'package.json'), '{"name":"vendor-assembler"}');
    expect(kitCommand(vendor, kit)).toMatch(/^node '?\.\.\/kit\/bin\/ctxconform\.mjs'?$/);
  });

  it('is the absolute path far from the kit, and in a folder with no package.json up the tree', () => {
    const far = join(tmp, 'a', 'b', 'c', 'd');
    mkdirSync(far, { recursive: true });
    expect(kitCommand(far, kit)).toMatch(new RegExp(`^node '?${join(kit, 'bin', 'ctxconform.mjs').replace(/[.]/g, '\\.')}'?$`));
  });
});
