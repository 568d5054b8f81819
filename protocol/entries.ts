/**
 * How a registry finds its entries at run time (the transports of
 * running/transports/, the report formats of report/formats/): every
 * module of a folder that ends as the registry's own module does (`.js`
 * compiled, `.ts` under vitest or tsx), each default-exporting one entry.
 */
import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The default exports of the entry modules of `dir`, in file-name order.
 * `registry` is the registry module's `import.meta.url`; a module whose
 * default export is no entry (`isEntry`) is an error naming it, what it
 * should export (`transport`) and the function that makes one.
 */
export async function entryModules<T>(dir: string, registry: string, isEntry: (x: unknown) => x is T, what: string, define: string): Promise<T[]> {
  const ext = extname(fileURLToPath(registry));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(ext) && !f.endsWith(`.d${ext}`))
    .sort();
  const modules = await Promise.all(files.map(async (f) => [f, (await import(pathToFileURL(join(dir, f)).href)) as { default?: unknown }] as const));
  return modules.map(([file, m]) => {
    if (!isEntry(m.default)) throw new Error(`${join(dir, file)} is in the ${what}s' folder but default-exports no ${what} (${define}({...}))`);
    return m.default;
  });
}
