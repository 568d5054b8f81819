import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The JSON report is what .ci/run counts; CI does not parse the console summary.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-results.json' },
    coverage: {
      provider: 'v8',
      include: ['reference/**/*.ts', 'conformance/**/*.ts', 'adapters/**/*.ts', 'report/**/*.ts'],
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
