import { parseArgs } from 'node:util';
import { formatProblem, loadCorpus } from '../cases/load.js';
import { globMatcher } from '../cases/filter.js';
import { EXIT_OK, EXIT_USAGE } from './main.js';
import { casesDir } from './validate.js';

export const usage = 'ctxconform list [--cases DIR] [--filter GLOB]';

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { cases: { type: 'string' }, filter: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(`usage: ${usage}\n\nPrints one line per case: its id and its requirement ids. GLOB matches ids (* within a path segment, ** across segments), e.g. 'expiry/*'.`);
    return EXIT_OK;
  }
  const { cases, problems } = loadCorpus(casesDir(values.cases));
  for (const p of problems) console.error(formatProblem(p));
  const match = values.filter ? globMatcher(values.filter) : () => true;
  const shown = cases.filter((c) => match(c.id));
  const width = Math.max(0, ...shown.map((c) => c.id.length));
  for (const c of shown) console.log(`${c.id.padEnd(width)}  ${c.requirements.join(' ')}`);
  return problems.length > 0 ? EXIT_USAGE : EXIT_OK;
}
