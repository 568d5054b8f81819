/**
 * The rooms of the kit (README "What is in the box"): the folder import graph
 * has no cycle, and each folder reaches only below itself. reference/ and
 * protocol/ import no other folder; adapters/ and report/ import protocol/
 * (and adapters/ the reference), never the engine's conformance/; the engine
 * never imports the command modules of cli/; only cli/ (and bin/, which
 * starts it) sees everything. Inside the folders, the same holds one level
 * down: the subfolders (and the loose files of a folder) import each other
 * without a cycle; and no file reaches itself through its imports.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['reference', 'protocol', 'adapters', 'report', 'conformance', 'cli', 'bin'] as const;
type Folder = (typeof FOLDERS)[number];

/** What each folder may import, besides itself and packages. */
const ALLOWED: Record<Folder, Folder[]> = {
  reference: ['protocol'],
  protocol: [],
  adapters: ['protocol', 'reference'],
  report: ['protocol'],
  conformance: ['protocol', 'reference', 'adapters', 'report'],
  cli: ['conformance', 'protocol', 'reference', 'adapters', 'report'],
  // bin/ starts the compiled command line (dist/cli/main.js).
  bin: ['cli'],
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

/** A repository path as its room: a subfolder of a folder, or a loose file directly in one (`conformance/spec.ts`). */
function roomOf(path: string): string {
  const parts = path.split(sep);
  if (parts[0] === 'dist') parts.shift(); // bin/ imports the compiled copy of a source folder
  const top = parts[0]!;
  if (parts.length === 2) return `${top}/${parts[1]!.replace(/\.js$/, '.ts')}`;
  return `${top}/${parts[1]}`;
}

/** room -> the rooms it imports, with one importing file for each. */
function graph(room: (path: string) => string): Map<string, Map<string, string>> {
  const g = new Map<string, Map<string, string>>();
  for (const folder of FOLDERS) {
    for (const file of sources(join(root, folder))) {
      const from = room(relative(root, file));
      if (!g.has(from)) g.set(from, new Map());
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const to = room(relative(root, resolve(dirname(file), spec)));
        if (to !== from && !g.get(from)!.has(to)) g.get(from)!.set(to, relative(root, file));
      }
    }
  }
  return g;
}

/** A repository path as its own node, the compiled copy's and the `.js` specifier's name as the source's. */
const fileOf = (path: string): string => path.replace(/^dist\//, '').replace(/\.js$/, '.ts');

const topOf = (path: string): string => {
  const parts = path.split(sep);
  return parts[0] === 'dist' ? parts[1]! : parts[0]!;
};

/** The rooms in a cycle: each that reaches itself through the graph. */
function cycles(g: Map<string, Map<string, string>>): string[] {
  const reach = (from: string, seen = new Set<string>()): Set<string> => {
    for (const t of g.get(from)?.keys() ?? []) if (!seen.has(t)) reach(t, seen.add(t));
    return seen;
  };
  return [...g.keys()]
    .filter((r) => reach(r).has(r))
    .map(
      (r) =>
        `${r} -> ${[...g.get(r)!]
          .filter(([t]) => reach(t).has(r))
          .map(([t, f]) => `${t} (${f})`)
          .join(', ')}`,
    );
}

describe('the folder import graph', () => {
  const folders = graph(topOf);
  const rooms = graph(roomOf);

  it('finds imports of every kind (so the checks below can fail)', () => {
    expect(
      specifiers(
        `import a from './a.js';\nimport type { B } from '../b/c.js';\nexport { d } from './d.js';\nconst e = await import('../e.js');\nimport './f.js';`,
      ),
    ).toEqual(['./a.js', '../b/c.js', './d.js', '../e.js', './f.js']);
    expect(folders.get('conformance')!.has('protocol')).toBe(true);
    expect(folders.get('adapters')!.has('protocol')).toBe(true);
    expect(folders.get('bin')!.has('cli')).toBe(true);
    expect(rooms.get('cli/run.ts')!.has('conformance/runner')).toBe(true);
    expect(
      cycles(
        new Map([
          ['a', new Map([['b', 'a.ts']])],
          ['b', new Map([['a', 'b.ts']])],
          ['c', new Map([['a', 'c.ts']])],
        ]),
      ),
    ).toEqual(['a -> b (a.ts)', 'b -> a (b.ts)']);
  });

  it.each(FOLDERS)('%s imports only the folders below it', (folder) => {
    const outside = [...(folders.get(folder) ?? [])].filter(
      ([target]) => (FOLDERS as readonly string[]).includes(target) && !ALLOWED[folder].includes(target as Folder),
    );
    expect(outside.map(([target, file]) => `${file} imports ${target}/`)).toEqual([]);
  });

  it('has no cycle between folders: no folder imports one that imports it back, however indirectly', () => {
    expect(cycles(folders)).toEqual([]);
  });

  it('has no cycle between the subfolders and loose files of the folders', () => {
    expect(cycles(rooms)).toEqual([]);
  });

  it('has no cycle between files, type-only imports included: no module needs one that needs it back', () => {
    expect(cycles(graph(fileOf))).toEqual([]);
  });
});
