/**
 * The command line: one module a command, which parses its options, calls the engine and prints.
 *
 * - main.ts: the command table, started by bin/ctxconform.mjs; usage.ts, output.ts, interrupt.ts: exit statuses,
 *   the terminal and signals.
 * - drive.ts, implementation.ts, report-options.ts, filter-option.ts, invocation.ts: what the judging commands
 *   share: opening the implementation, the report files, the filter, the commands printed back.
 * - vitest.ts: the package's `ctxconform/vitest`, the suite as a vendor's tests.
 *
 * This index names the parts and exports nothing.
 */
