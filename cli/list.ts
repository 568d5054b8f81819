import { parseArgs } from 'node:util';
import { selects } from '../judging/cases/filter.js';
import { checkFilterOption } from './filter-option.js';
import { formatProblem, loadCorpus } from '../judging/cases/load.js';
import { holdsIn, specVersionProblem } from '../vocabulary/spec.js';
import { EXIT_OK, EXIT_USAGE, UsageError } from './usage.js';
import { casesDir } from './validate.js';
import { out, err } from './output.js';

export const usage = 'ctxconform list [--cases DIR] [--filter EXPR] [--spec vN] [--tags]';

const HELP = `usage: ${usage}

Prints one line per case: its id and its requirement ids; with --tags also the spec
version it holds since and its tags. EXPR is that of run --filter: case-id globs
('expiry/*'; * within a path segment, ** across), tag:NAME, req:ID or a section
prefix (req:CON-), area:NAME; '!' excludes and '+' joins atoms that must all hold,
e.g. 'area:tiers,!tag:rounding'. --spec vN lists the cases that hold in vN.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { cases: { type: 'string' }, filter: { type: 'string' }, spec: { type: 'string' }, tags: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    out(HELP);
    return EXIT_OK;
  }
  const spec = values.spec;
  if (spec !== undefined && specVersionProblem(spec)) throw new UsageError(`--spec: ${specVersionProblem(spec)!}`);
  const { cases, problems } = loadCorpus(casesDir(values.cases));
  for (const p of problems) err(formatProblem(p));
  let match: (c: (typeof cases)[number]) => boolean = () => true;
  if (values.filter !== undefined) {
    const filter = await checkFilterOption(values.filter, cases);
    match = (c) => selects(filter, c);
  }
  const shown = cases.filter((c) => match(c) && (spec === undefined || holdsIn(c.since, spec)));
  const width = Math.max(0, ...shown.map((c) => c.id.length));
  for (const c of shown)
    out(`${c.id.padEnd(width)}  ${c.requirements.join(' ')}${values.tags ? `  since ${c.since}${c.tags.length ? `  tags ${c.tags.join(' ')}` : ''}` : ''}`);
  return problems.length > 0 ? EXIT_USAGE : EXIT_OK;
}
