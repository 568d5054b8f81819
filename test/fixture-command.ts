/**
 * The command that starts a test fixture as a process (an implementation over
 * stdio, a faulty one) from its compiled JavaScript in dist/test/fixtures,
 * which `npm run build:fixtures` writes (`npm test` runs it first). Under
 * tsx every start compiled TypeScript, about 0.45 s of CPU a process, and a
 * run over stdio starts four of them.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The compiled file of a TypeScript fixture (an absolute path under test/fixtures). */
export function compiledFixture(path: string): string {
  const rel = relative(ROOT, path);
  if (!rel.startsWith('test/fixtures/') || !rel.endsWith('.ts')) throw new Error(`${path} is not a TypeScript fixture under test/fixtures`);
  const out = `${ROOT}dist/${rel.slice(0, -3)}.js`;
  if (!existsSync(out)) throw new Error(`${out} is missing: run npm run build:fixtures (npm test runs it)`);
  return out;
}

/** `node FIXTURE ARGS...`, each quoted; a TypeScript fixture among the arguments (a module to load) is given compiled too. */
export function fixtureCommand(script: string, ...args: string[]): string {
  const js = (p: string): string => (p.endsWith('.ts') ? compiledFixture(p) : p);
  return [process.execPath, js(script), ...args.map(js)].map((x) => `"${x}"`).join(' ');
}
