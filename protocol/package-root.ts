/**
 * The folder that holds the kit's package.json. Data files (cases, schemas,
 * SPEC.md) are found from here, so the TypeScript sources and the compiled
 * JavaScript in dist/ (one folder deeper) read the same files.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(from: string): string {
  for (let dir = dirname(from); ; ) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`ctxconform: no package.json above ${from}`);
    dir = up;
  }
}

export const PACKAGE_ROOT: string = packageRoot(fileURLToPath(import.meta.url));

/** A path inside the kit's package, from its root: `packagePath('cases')`. */
export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
