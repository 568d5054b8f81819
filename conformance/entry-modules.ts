/**
 * The modules of a registry's folder (transports, defects): each file that
 * ends as the calling module does (`.js` compiled, `.ts` under vitest or
 * tsx), declarations aside, by file name, each imported.
 */
import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** [file name, module] for each entry module of `dir`, in file-name order; `callerUrl` is the loader's import.meta.url. */
export async function importEntryModules(dir: string, callerUrl: string): Promise<(readonly [string, { default?: unknown }])[]> {
  const ext = extname(fileURLToPath(callerUrl));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(ext) && !f.endsWith(`.d${ext}`))
    .sort();
  return Promise.all(files.map(async (f) => [f, (await import(pathToFileURL(join(dir, f)).href)) as { default?: unknown }] as const));
}
