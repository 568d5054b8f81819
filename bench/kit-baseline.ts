/**
 * The kit as it was at KIT_BASELINE_COMMIT, checked out of git into a
 * temporary folder, this checkout's node_modules linked into it, and
 * compiled there as `npm run build` compiles this one (tsc into dist/), so
 * that a bench can time the same code paths before and after in one run on
 * one machine. Where there is no git checkout, the bench says so and prints
 * this checkout's numbers alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The commit the speed work on replay started from. */
export const KIT_BASELINE_COMMIT = '680e67a';

/** What `npm run build` reads, and what the command reads when it runs (the corpus, SPEC.md's ids). */
const FILES = [
  'adapters',
  'bin',
  'cases',
  'cli',
  'conformance',
  'protocol',
  'reference',
  'report',
  'scripts',
  'SPEC.md',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

export function checkoutKit(commit: string = KIT_BASELINE_COMMIT): { root: string; dispose: () => void } | { error: string } {
  const here = fileURLToPath(new URL('..', import.meta.url));
  const archive = spawnSync('git', ['-C', here, 'archive', '--format=tar', commit, ...FILES], { maxBuffer: 256 << 20 });
  if (archive.status !== 0) return { error: `git archive ${commit} failed: ${String(archive.stderr ?? archive.error).trim()}` };
  const root = mkdtempSync(join(tmpdir(), 'ctxconform-kit-'));
  const dispose = (): void => rmSync(root, { recursive: true, force: true });
  const tar = spawnSync('tar', ['-x', '-C', root], { input: archive.stdout });
  if (tar.status !== 0) {
    dispose();
    return { error: `tar failed: ${String(tar.stderr ?? tar.error).trim()}` };
  }
  symlinkSync(join(here, 'node_modules'), join(root, 'node_modules'), 'dir');
  // `npm run build` there: tsc into dist/, then the validators and the corpus compiled for start-up.
  // Without declarations and build info where the checkout allows it: a composite project (the later commits)
  // refuses both flags, and is built as it is.
  const composite = /"composite"\s*:\s*true/.test(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
  const steps: string[][] = [
    [join(here, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', ...(composite ? [] : ['--incremental', 'false', '--declaration', 'false'])],
    ['scripts/precompile.mjs'],
  ];
  for (const step of steps) {
    const r = spawnSync(process.execPath, step, { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) {
      dispose();
      return { error: `building the checkout of ${commit} failed (${step.join(' ')}): ${(r.stdout + r.stderr).trim().slice(0, 500)}` };
    }
  }
  return { root, dispose };
}
