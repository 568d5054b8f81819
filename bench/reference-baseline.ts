/**
 * The reference as it was before its speed work (commit BASELINE_COMMIT on main),
 * checked out of git into a temporary folder and loaded beside today's, so
 * that "N times faster" is measured in the same run on the same machine. Where
 * there is no git checkout (an installed package), the bench says so and
 * prints the number measured when the goal was set.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BASELINE_COMMIT = 'cd42f2a';
/** Small requests per second of BASELINE_COMMIT on the 2-core development machine, warm, 50 blocks. */
export const BASELINE_STATED = { requestsPerSecond: 32_000, where: 'the 2-core development machine, Node 20 (median of six runs of this bench)' };

export type Assemble = (request: unknown) => unknown;

export async function loadBaseline(): Promise<{ assemble: Assemble; dispose: () => void } | { error: string }> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const archive = spawnSync('git', ['-C', root, 'archive', '--format=tar', BASELINE_COMMIT, 'reference'], { maxBuffer: 64 << 20 });
  if (archive.status !== 0) return { error: `git archive ${BASELINE_COMMIT} failed: ${String(archive.stderr ?? archive.error).trim()}` };
  const dir = mkdtempSync(join(tmpdir(), 'ctxconform-baseline-'));
  const dispose = (): void => rmSync(dir, { recursive: true, force: true });
  const tar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (tar.status !== 0) {
    dispose();
    return { error: `tar failed: ${String(tar.stderr ?? tar.error).trim()}` };
  }
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  const mod = (await import(pathToFileURL(join(dir, 'reference', 'index.ts')).href)) as { assemble: Assemble };
  return { assemble: mod.assemble, dispose };
}
