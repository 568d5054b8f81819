import { parseArgs } from 'node:util';
import { formatProblem, loadCorpus } from '../judging/cases/load.js';
import { isCaseExempt, specRequirements } from '../vocabulary/spec.js';
import type { GoldenCase } from '../vocabulary/types.js';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE } from './usage.js';
import { casesDir } from './validate.js';
import { out, err } from './output.js';

export const usage = 'ctxconform coverage [--cases DIR] [--json]';

interface CoverageRow {
  id: string;
  section: string;
  exempt: boolean;
  cases: string[];
}

/** Every SPEC id with the cases that cite it, in SPEC order. */
function coverageMatrix(cases: readonly GoldenCase[]): CoverageRow[] {
  return specRequirements().map((r) => ({
    id: r.id,
    section: r.section,
    exempt: isCaseExempt(r.id),
    cases: cases.filter((c) => c.requirements.includes(r.id)).map((c) => c.id),
  }));
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { cases: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    out(
      `usage: ${usage}\n\nPrints every SPEC.md requirement id with its case count and case ids; exits 1 when an id outside the harness-covered prefixes has no case.`,
    );
    return EXIT_OK;
  }
  const { cases, problems } = loadCorpus(casesDir(values.cases));
  for (const p of problems) err(formatProblem(p));
  if (problems.length > 0) return EXIT_USAGE;
  const rows = coverageMatrix(cases);
  const uncovered = rows.filter((r) => !r.exempt && r.cases.length === 0);
  if (values.json) {
    out(JSON.stringify({ requirements: rows, uncovered: uncovered.map((r) => r.id) }, null, 1));
  } else {
    const width = Math.max(...rows.map((r) => r.id.length));
    for (const r of rows) {
      const count = r.exempt && r.cases.length === 0 ? '  -' : String(r.cases.length).padStart(3);
      const note = r.exempt ? (r.cases.length === 0 ? '(harness and contract suites)' : '') : r.cases.length === 0 ? 'UNCOVERED' : '';
      out(`${r.id.padEnd(width)} ${count}  ${[note, r.cases.join(' ')].filter(Boolean).join(' ')}`);
    }
    const covered = rows.filter((r) => !r.exempt && r.cases.length > 0).length;
    const total = rows.filter((r) => !r.exempt).length;
    out(
      `\n${covered}/${total} case-covered requirements have a case; ${cases.length} cases.${uncovered.length ? ` Uncovered: ${uncovered.map((r) => r.id).join(', ')}` : ''}`,
    );
  }
  return uncovered.length > 0 ? EXIT_FAIL : EXIT_OK;
}
