/**
 * The whole tree type-checks under strict TypeScript: a type error is a failing test, not a silent CI pass.
 * The kit's own sources are checked by the build `npm test` runs first (tsconfig.build.json); this
 * checks the tests, benches and scripts against the declarations that build wrote (a project reference).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';

it('tsc --noEmit reports no error for the whole project', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', '.'], { encoding: 'utf8' });
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
  // A whole-program check takes 15 to 20 s of CPU; on a loaded 2-core machine a minute is not enough.
}, 300_000);
