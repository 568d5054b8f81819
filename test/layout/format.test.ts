/**
 * One style, checked: every source file is as Biome formats it and passes its
 * lint rules (biome.json), and no line is wider than a reader sees whole.
 * `npx biome check --write .` fixes what it can.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

it('biome ci finds nothing to format or lint', () => {
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
  const r = spawnSync(process.execPath, [biome, 'ci', '--colors=off', '.'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
});

/** The widest line a reader sees whole beside the code around it; styles and long texts are split where they read. */
const MAX_LINE = 200;

it(`no source line is over ${MAX_LINE} characters`, () => {
  const files = execFileSync('git', ['ls-files', '-z', '*.ts', '*.mts', '*.mjs', '*.cjs', '*.js', '*.py'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  expect(files.length).toBeGreaterThan(400);
  const long = files.flatMap((f) =>
    readFileSync(join(ROOT, f), 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.length > MAX_LINE ? [`${f}:${i + 1} has ${line.length}`] : [])),
  );
  expect(long).toEqual([]);
});
