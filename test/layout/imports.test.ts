/**
 * The rooms of the kit (CONTRIBUTING.md "The layout"): the folder import
 * graph runs one way, from the command line down to the wire vocabulary.
 * ALLOWED below is the one place the directions are written: each top folder
 * may import only the folders its row names, and the rows themselves form no
 * circle, so a folder's floor is above every folder it may import. Inside the
 * folders, the same holds one level down: the subfolders (and the loose files
 * of a folder) import each other without a cycle; and no file reaches itself
 * through its imports.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What each folder may import, besides itself and packages: the floors, from
 * the ground up. The wire vocabulary and the oracle are the ground; the
 * writers and the translators stand on them; the engine's rooms climb from its
 * shared vocabulary through the contract and judging, the diagnosis, running
 * and traffic; the command line alone sees everything.
 */
const ALLOWED = {
  protocol: [],
  reference: ['protocol'],
  report: ['protocol'],
  adapters: ['protocol', 'reference'],
  vocabulary: ['protocol', 'reference'],
  contract: ['protocol', 'reference', 'adapters', 'report', 'vocabulary'],
  judging: ['protocol', 'reference', 'vocabulary'],
  diagnosis: ['protocol', 'reference', 'report', 'vocabulary', 'judging'],
  running: ['protocol', 'reference', 'adapters', 'report', 'vocabulary', 'contract', 'judging', 'diagnosis'],
  traffic: ['protocol', 'reference', 'adapters', 'report', 'vocabulary', 'contract', 'judging', 'diagnosis', 'running'],
  cli: ['protocol', 'reference', 'adapters', 'report', 'vocabulary', 'contract', 'judging', 'diagnosis', 'running', 'traffic'],
  // bin/ starts the compiled command line (dist/cli/main.js).
  bin: ['cli'],
} as const satisfies Record<string, readonly string[]>;
type Folder = keyof typeof ALLOWED;
const FOLDERS = Object.keys(ALLOWED) as Folder[];
/** The folders of source code; bin/ holds the launcher alone. */
const SOURCE_FOLDERS = FOLDERS.filter((f) => f !== 'bin');

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

/** A repository path as its room: a subfolder of a folder, or a loose file directly in one (`vocabulary/spec.ts`). */
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
    expect(folders.get('judging')!.has('protocol')).toBe(true);
    expect(folders.get('adapters')!.has('protocol')).toBe(true);
    expect(folders.get('bin')!.has('cli')).toBe(true);
    expect(rooms.get('cli/run.ts')!.has('running/run.ts')).toBe(true);
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

  it('writes the allowed directions as floors: no folder may import one that may import it back', () => {
    const allowed = new Map(FOLDERS.map((f) => [f, new Map(ALLOWED[f].map((t) => [t as string, 'ALLOWED']))]));
    expect(cycles(allowed)).toEqual([]);
  });

  it.each(FOLDERS)('%s imports only the folders below it', (folder) => {
    const outside = [...(folders.get(folder) ?? [])].filter(
      ([target]) => (FOLDERS as readonly string[]).includes(target) && !(ALLOWED[folder] as readonly string[]).includes(target),
    );
    expect(outside.map(([target, file]) => `${file} imports ${target}/`)).toEqual([]);
  });

  it('keeps every folder under a quarter of the source lines', () => {
    const lines = new Map(SOURCE_FOLDERS.map((f) => [f, sources(join(root, f)).reduce((n, file) => n + readFileSync(file, 'utf8').split('\n').length, 0)]));
    const total = [...lines.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20_000);
    expect([...lines].filter(([, n]) => n > total / 4).map(([f, n]) => `${f}/ holds ${n} of ${total} lines`)).toEqual([]);
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

/** The package's entry modules (package.json `exports`), as sources: the one place a folder hands on another's names. */
function packageEntries(): Set<string> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | { import: string }> };
  return new Set(
    Object.values(pkg.exports)
      .map((e) => (typeof e === 'string' ? e : e.import))
      .filter((t) => t.startsWith('./dist/'))
      .map((t) => fileOf(t.slice('./dist/'.length))),
  );
}

/** The names of a brace list (`a, type B, c as d`), each as [the name inside the module, the name outside it]. */
const named = (list: string): [string, string][] =>
  list
    .split(',')
    .map((x) => x.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((x) => {
      const [inner, outer] = x.split(/\s+as\s+/);
      return [inner!, outer ?? inner!];
    });

/** What a module hands on: `export { a, b as c } from './m.js'` and `import { a } ...; export { a };`, each with the module it comes from. */
function reExports(text: string): { name: string; from: string }[] {
  const out: { name: string; from: string }[] = [];
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/gm))
    for (const [, outer] of named(m[1]!)) out.push({ name: outer, from: m[2]! });
  for (const m of text.matchAll(/^export\s+\*\s+(?:as\s+\w+\s+)?from\s*'([^']+)'/gm)) out.push({ name: '*', from: m[1]! });
  const imported = new Map<string, string>();
  for (const m of text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/gm))
    for (const [_inner, local] of named(m[1]!)) imported.set(local, m[2]!);
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\};?$/gm))
    for (const [inner, outer] of named(m[1]!)) if (imported.has(inner)) out.push({ name: outer, from: imported.get(inner)! });
  return out;
}

describe('the shared names have one home', () => {
  const files = SOURCE_FOLDERS.flatMap((folder) => sources(join(root, folder))).filter((f) => f.endsWith('.ts'));
  const handed = new Map(files.map((f) => [relative(root, f), reExports(readFileSync(f, 'utf8'))]));
  const entries = packageEntries();

  it('reads what a module hands on (so the checks below can fail)', () => {
    expect(
      reExports(
        "export { a, b as c } from './m.js';\nexport type { T } from '../t.js';\nimport { d } from '../v/d.js';\nexport { d };\nexport * from './all.js';",
      ),
    ).toEqual([
      { name: 'a', from: './m.js' },
      { name: 'c', from: './m.js' },
      { name: 'T', from: '../t.js' },
      { name: '*', from: './all.js' },
      { name: 'd', from: '../v/d.js' },
    ]);
    expect(entries).toEqual(new Set(['reference/index.ts', 'protocol/schemas.ts', 'cli/vitest.ts', 'traffic/shadow/observe.ts', 'report/index.ts']));
  });

  it("hands on no other folder's names, but in the package's entry modules", () => {
    const found = [...handed].flatMap(([file, list]) =>
      entries.has(file)
        ? []
        : list
            .filter((r) => topOf(relative(root, resolve(root, dirname(file), r.from))) !== topOf(file))
            .map((r) => `${file} hands on ${r.name} from ${r.from}`),
    );
    expect(found).toEqual([]);
  });

  it('hands on a name only from the module that defines it: no chain of re-exports', () => {
    const found = [...handed].flatMap(([file, list]) =>
      list.flatMap((r) => {
        const from = fileOf(relative(root, resolve(root, dirname(file), r.from)));
        return (handed.get(from) ?? []).some((again) => again.name === r.name || again.name === '*')
          ? [`${file} hands on ${r.name} from ${from}, which hands it on itself`]
          : [];
      }),
    );
    expect(found).toEqual([]);
  });

  it("takes a folder's names from their home, never through another folder's entry module", () => {
    /** The names an entry module hands on from other folders: those another folder's module defines. */
    const foreign = new Map(
      [...entries].map((entry) => {
        const names = new Set<string>();
        for (const r of handed.get(entry) ?? []) {
          const from = fileOf(relative(root, resolve(root, dirname(entry), r.from)));
          if (topOf(from) === topOf(entry)) continue;
          if (r.name !== '*') names.add(r.name);
          else
            for (const m of readFileSync(join(root, from), 'utf8').matchAll(/^export\s+(?:declare\s+)?(?:interface|type|const|function|class)\s+(\w+)/gm))
              names.add(m[1]!);
        }
        return [entry, names] as const;
      }),
    );
    expect(foreign.get('reference/index.ts')).toContain('Block');
    const found = files.flatMap((file) => {
      const path = relative(root, file);
      return [...readFileSync(file, 'utf8').matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/gm)].flatMap((m) => {
        const target = fileOf(relative(root, resolve(root, dirname(path), m[2]!)));
        const names = foreign.get(target);
        if (!names || topOf(target) === topOf(path)) return [];
        return named(m[1]!)
          .map(([inner]) => inner)
          .filter((n) => names.has(n))
          .map((n) => `${path} takes ${n} through ${target}`);
      });
    });
    expect(found).toEqual([]);
  });

  it.each(SOURCE_FOLDERS)('%s/index.ts opens with one line saying what the folder owns', (folder) => {
    const text = readFileSync(join(root, folder, 'index.ts'), 'utf8');
    const opening = /^\/\*\*\n \* (.+)\n \*(\/|\n)/.exec(text);
    expect(opening, `${folder}/index.ts opens with /**, a line ending in a period, then a blank comment line or the close`).not.toBeNull();
    expect(opening![1]).toMatch(/\.$/);
  });
});
