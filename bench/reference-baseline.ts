/**
 * The reference and its bench as they were at BASELINE_COMMIT (where this
 * round of speed work started), checked out of git into a temporary folder
 * and loaded beside today's, so that before and after are measured in the
 * same run on the same machine. Where there is no git checkout (an installed
 * package), the bench says so and prints today's numbers alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BASELINE_COMMIT = '680e67a';

export type Assemble = (request: unknown) => unknown;

/** reference/ of `commit` in a folder of its own (its TypeScript, loaded through tsx), or why not. */
export function checkoutReference(commit: string = BASELINE_COMMIT): { dir: string; dispose: () => void } | { error: string } {
  const root = fileURLToPath(new URL('..', import.meta.url));
  // reference/ imports the wire types from protocol/.
  const archive = spawnSync('git', ['-C', root, 'archive', '--format=tar', commit, 'reference', 'protocol'], { maxBuffer: 64 << 20 });
  if (archive.status !== 0) return { error: `git archive ${commit} failed: ${String(archive.stderr ?? archive.error).trim()}` };
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-baseline-'));
  const dispose = (): void => rmSync(dir, { recursive: true, force: true });
  const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (tar.status !== 0) {
    dispose();
    return { error: `tar failed: ${String(tar.stderr ?? tar.error).trim()}` };
  }
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  return { dir, dispose };
}

/** The reference of a folder from checkoutReference. */
export async function loadReference(dir: string): Promise<Assemble> {
  return ((await import(pathToFileURL(join(dir, 'reference', 'index.ts')).href)) as { assemble: Assemble }).assemble;
}
