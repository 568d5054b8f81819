/**
 * The repository is the whole product: a user clones it with nothing beside
 * it. No tracked file names a path of one machine (a home or work folder) or a
 * relative path that climbs above the repository root; published data the
 * tests need is copied in test/fixtures/published/, and what is not copied is
 * reached through CTXCONFORM_ANCHORS.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli.js';

/** Files that may name such a path, and why. */
const ALLOWED: Record<string, string> = {
  '.ci/run': 'CI points CTXCONFORM_ANCHORS at the originals beside the clone when they are there (an environment variable, as the tests require)',
  'cases/README.md': "shows the schema header of a case file, which sits two folders below the root, not the README's own path",
  'README.md':
    "its install commands run in the vendor's own repository, with the kit cloned beside it as ../ctxconform: a path of the user's folders, not one this repository reaches",
};

// Built from pieces so that this file does not match itself.
const MACHINE_ROOTS = ['work', 'home', 'root', 'Users', 'mnt', 'tmp'].join('|');
const ABSOLUTE = new RegExp(`(?:^|[^\\w.~-])(/(?:${MACHINE_ROOTS})/[\\w.-]+)|\\b([A-Za-z]:\\\\(?:Users|work)\\\\)`, 'g');
const CLIMB = /(?:\.\.\/)+[\w.-]*/g;

function trackedTextFiles(): { path: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  return files.flatMap((path) => {
    const bytes = readFileSync(join(ROOT, path));
    return bytes.includes(0) ? [] : [{ path, text: bytes.toString('utf8') }];
  });
}

/** `../` runs that, read from the file's own folder, end above the repository root. */
function climbsOut(path: string, text: string): string[] {
  return [...text.matchAll(CLIMB)].map((m) => m[0]).filter((p) => normalize(join(dirname(path), p)).startsWith('..'));
}

describe('no tracked file reaches outside the repository', () => {
  const files = trackedTextFiles().filter((f) => !Object.hasOwn(ALLOWED, f.path));

  it('reads the tracked files', () => {
    expect(files.length).toBeGreaterThan(400);
    expect(files.some((f) => f.path === 'SPEC.md')).toBe(true);
  });

  it('names no absolute path of a machine', () => {
    const found = files.flatMap((f) => [...f.text.matchAll(ABSOLUTE)].map((m) => `${f.path}: ${(m[1] ?? m[2])!}`));
    expect(found).toEqual([]);
  });

  it('names no relative path above the repository root', () => {
    const found = files.flatMap((f) => climbsOut(f.path, f.text).map((p) => `${f.path}: ${p}`));
    expect(found).toEqual([]);
  });

  it('the checks find what they look for', () => {
    // The folder names are put together here so that this file does not name them itself.
    const [beside, inside] = ['sha' + 'red', 'anc' + 'hors'];
    expect([...`read ${'/'}work/${beside}/${inside}/x.json`.matchAll(ABSOLUTE)].map((m) => m[1])).toEqual([`${'/'}work/${beside}`]);
    expect(climbsOut('test/reference/x.test.ts', `new URL('${'../'.repeat(3)}${beside}/${inside}/', import.meta.url)`)).toEqual([
      `${'../'.repeat(3)}${beside}`,
    ]);
    expect(climbsOut('test/reference/x.test.ts', "new URL('../../reference/', import.meta.url)")).toEqual([]);
  });
});
