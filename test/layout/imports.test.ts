/**
 * The rooms of the kit (README "What is in the box"): the folder import graph
 * has no cycle, and each folder reaches only below itself. reference/ and
 * protocol/ import no other folder; adapters/ and report/ import protocol/
 * (and adapters/ the reference), never the runner's conformance/; only
 * conformance/ (and bin/, which starts it) sees everything.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['reference', 'protocol', 'adapters', 'report', 'conformance', 'bin'] as const;
type Folder = (typeof FOLDERS)[number];

/** What each folder may import, besides itself and packages. */
const ALLOWED: Record<Folder, Folder[]> = {
  reference: [],
  protocol: [],
  adapters: ['protocol', 'reference'],
  report: ['protocol'],
  conformance: ['protocol', 'reference', 'adapters', 'report'],
  bin: ['conformance'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|mts|mjs)$/.test(name) ? [p] : [];
  });
}

/** Every relative module specifier of a file: static and dynamic imports, re-exports, type-only ones too. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
}

/** Folder -> the folders it imports, with one file that does it for each. */
function graph(): Map<Folder, Map<string, string>> {
  const g = new Map<Folder, Map<string, string>>(FOLDERS.map((f) => [f, new Map()]));
  for (const folder of FOLDERS) {
    for (const file of sources(join(root, folder))) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const target = relative(root, resolve(dirname(file), spec)).split('/')[0]!;
        if (target !== folder && !g.get(folder)!.has(target)) g.get(folder)!.set(target, relative(root, file));
      }
    }
  }
  return g;
}

describe('the folder import graph', () => {
  const g = graph();

  it('finds imports of every kind (so the checks below can fail)', () => {
    expect(specifiers(`import a from './a.js';\nimport type { B } from '../b/c.js';\nexport { d } from './d.js';\nconst e = await import('../e.js');\nimport './f.js';`)).toEqual(['./a.js', '../b/c.js', './d.js', '../e.js', './f.js']);
    expect(g.get('conformance')!.has('protocol')).toBe(true);
    expect(g.get('adapters')!.has('protocol')).toBe(true);
  });

  it.each(FOLDERS)('%s imports only the folders below it', (folder) => {
    const outside = [...g.get(folder)!].filter(([target]) => (FOLDERS as readonly string[]).includes(target) && !ALLOWED[folder].includes(target as Folder));
    expect(outside.map(([target, file]) => `${file} imports ${target}/`)).toEqual([]);
  });

  it('has no cycle: no folder imports one that imports it back, however indirectly', () => {
    const reach = (from: Folder, seen = new Set<string>()): Set<string> => {
      for (const t of g.get(from)!.keys()) if ((FOLDERS as readonly string[]).includes(t) && !seen.has(t)) reach(t as Folder, seen.add(t));
      return seen;
    };
    expect(FOLDERS.filter((f) => reach(f).has(f))).toEqual([]);
  });
});
