/**
 * What every command says about its command line: a usage error, the exit
 * statuses, and the integer options every command parses the same way.
 */

/** Printed without a stack, exit 2: the command line was wrong, or what it names cannot be used. */
export class UsageError extends Error {}

export const EXIT_OK = 0;
/** Something was tested and something unexpected failed (or nothing was tested at all). */
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;
/** Nothing failed, but part of the input could not be read: the verdict is INCOMPLETE (SPEC PROTO-10). */
export const EXIT_INCOMPLETE = 3;
/** Ended by SIGINT or SIGTERM (after writing the reports of what was judged): 128 + the signal's number, as a shell reports it. */
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

/** The integer value of `--name` (absent: fallback), at least `min`; a UsageError naming the option otherwise. */
export function intOption(values: Record<string, unknown>, name: string, fallback: number, min: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw.trim())) throw new UsageError(`--${name} needs an integer, not ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, not ${raw}`);
  return n;
}

/** `--properties N` (random requests or runs per property; default 100, 0 none) and `--seed N` (default 1), as run and contract read them. */
export function randomRuns(values: Record<string, unknown>): { runs: number; seed: number } {
  return { runs: intOption(values, 'properties', 100, 0), seed: intOption(values, 'seed', 1, -(2 ** 31)) };
}
