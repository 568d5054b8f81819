import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BUNDLED_CASES_DIR, formatProblem, loadCorpus } from '../judging/cases/load.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './usage.js';
import { out, err } from './output.js';

export const usage = 'ctxconform validate [--cases DIR]';

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { cases: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) {
    out(
      `usage: ${usage}\n\nChecks every case file against the case schema and the ids of SPEC.md; prints file:line:col: message per problem and exits 2 on any.\n` +
        `Without --cases, checks the bundled corpus.`,
    );
    return EXIT_OK;
  }
  const dir = casesDir(values.cases);
  const { cases, problems } = loadCorpus(dir);
  for (const p of problems) err(formatProblem(p));
  if (problems.length > 0) {
    err(`${problems.length} problem${problems.length === 1 ? '' : 's'} in ${dir}`);
    return EXIT_USAGE;
  }
  out(`${cases.length} case${cases.length === 1 ? '' : 's'} valid in ${dir}`);
  return EXIT_OK;
}

/** The --cases directory of validate, list and coverage, the bundled corpus by default. */
export function casesDir(given: string | undefined): string {
  const dir = given ?? BUNDLED_CASES_DIR;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--cases ${dir}: not a directory`);
  return dir;
}
