/**
 * One style, checked: every source file is as Biome formats it and passes its
 * lint rules (biome.json). `npx biome check --write .` fixes what it can.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

it('biome ci finds nothing to format or lint', () => {
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  const r = spawnSync(process.execPath, [biome, 'ci', '--colors=off', '.'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
});
