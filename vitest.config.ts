import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Every test file, relative to the repository root. */
function testFiles(dir = 'test'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * The slow group, in a project of its own so `npm run test:fast` is a quick inner loop:
 * the pack, type-check and browser tests, the ones that run the command line
 * (they import test/cli.ts), the ones that start implementations as processes
 * and wait out their faults, and the diagnosis of the whole catalogue over the
 * corpus (test/diagnose/catalogue.test.ts, principles-catalogue.test.ts, stdio.test.ts).
 */
const SLOW = testFiles().filter(
  (f) =>
    /\.browser\.test\.ts$|^test\/(package|typecheck)/.test(f) ||
    [
      'test/runner/faults.test.ts',
      'test/properties/broken.test.ts',
      'test/adapters/module.test.ts',
      'test/memory-api/required-refs.test.ts',
      'test/diagnose/catalogue.test.ts',
      'test/diagnose/principles-catalogue.test.ts',
      'test/diagnose/stdio.test.ts',
      'test/diagnose/run.test.ts',
      'test/diagnose/declared-designs.test.ts',
    ].includes(f) ||
    // The fixtures of other designs run as processes (Python and Node), each over the corpus.
    f.startsWith('test/designs/') ||
    /from '\.\.?\/cli\.js'|from '\.\.\/\.\.\/test\/cli\.js'/.test(readFileSync(f, 'utf8')),
);

/**
 * Files that mock a module (vi.mock) run isolated: with the module graph shared
 * between files, the kit's modules are often loaded already when such a file
 * starts, and the mock would silently not apply.
 */
const MOCKING = testFiles().filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(f, 'utf8')));

export default defineConfig({
  test: {
    // Most test files wait on processes they start (the CLI, implementations over stdio):
    // more files in flight than cores keeps both cores busy. Files share one module graph
    // per worker (no isolation): the kit keeps no state a test could leak into another.
    maxWorkers: 3,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report is what .ci/run counts; CI does not parse the console summary.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...SLOW, ...MOCKING] } },
      { extends: true, test: { name: 'slow', include: SLOW.filter((f) => !MOCKING.includes(f)) } },
      { extends: true, test: { name: 'isolated', include: MOCKING, isolate: true } },
    ],
    coverage: {
      provider: 'v8',
      include: [
        'reference/**/*.ts',
        'protocol/**/*.ts',
        'vocabulary/**/*.ts',
        'contract/**/*.ts',
        'judging/**/*.ts',
        'diagnosis/**/*.ts',
        'running/**/*.ts',
        'traffic/**/*.ts',
        'adapters/**/*.ts',
        'report/**/*.ts',
      ],
      // The include globs also match test/reference/ and the like: tests are not what is measured.
      exclude: ['test/**', 'bench/**'],
      reporter: ['text-summary', 'text'],
      // CI shows coverage even on a red run: the number is part of what a reader checks.
      reportOnFailure: true,
      thresholds: {
        'reference/**/*.ts': { lines: 95, branches: 95 },
      },
    },
  },
});
