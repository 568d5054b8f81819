/**
 * The command that runs this kit from the folder the user ran in, as every
 * command the kit prints begins (rerun lines, hints, baseline notes). A bare
 * `npx ctxconform` asks the public registry for a package of that name
 * wherever no local one answers it: a 404 today, a stranger's code the day
 * someone registers the name. So it is printed only where it resolves to
 * this checkout: inside the kit's own folder, or in a project that depends on
 * it. Anywhere else the line runs the kit's own bin with node.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { shellQuote } from '../running/console.js';
import { PACKAGE_ROOT } from '../protocol/package-root.js';

const real = (p: string): string | undefined => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

/** Whether `npx ctxconform` run in `cwd` finds this kit: its own folder (or one below it), or a node_modules/ctxconform up the tree that is it. */
function npxFindsThisKit(cwd: string, root: string): boolean {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    // npm runs a package's own bin from its folder and the folders below it, up to the nearest package.json.
    if (real(join(dir, 'package.json')) !== undefined) return real(dir) === root || real(join(dir, 'node_modules', 'ctxconform')) === root;
    if (dirname(dir) === dir) return false;
  }
}

/** `npx ctxconform` where it resolves to this kit, else `node PATH/bin/ctxconform.mjs` (relative when the kit is near, else absolute). */
export function kitCommand(cwd: string = process.cwd(), root: string = PACKAGE_ROOT): string {
  const kit = real(root) ?? root;
  if (npxFindsThisKit(cwd, kit)) return 'npx ctxconform';
  const bin = join(kit, 'bin', 'ctxconform.mjs');
  const near = relative(cwd, bin);
  const climbs = near.split(sep).filter((part) => part === '..').length;
  return `node ${shellQuote(!isAbsolute(near) && climbs <= 2 ? near : bin)}`;
}
