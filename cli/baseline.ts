/**
 * `ctxconform baseline REPORT.json [--write FILE]`: the baseline a report
 * calls for, each entry keyed to the failure it accepts (its defect). With
 * --write, FILE is created or brought up to date: the kind, reason and link
 * of its entries are kept while the failure is the one they accept, an entry
 * whose failure is now another defect becomes a new bug entry, an entry
 * without a key gets one, entries whose case now passes are dropped, entries
 * the report did not run are kept.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { formatBaseline, loadBaselineEntries, readReport, ReportFileError, updateBaseline } from '../judging/baseline.js';
import type { BaselineEntry } from '../judging/baseline.js';
import { describeDefect } from '../vocabulary/defect.js';
import type { Report } from '../protocol/types.js';
import { EXIT_OK, UsageError } from './usage.js';
import { out, print } from './output.js';
import { terminalValue } from '../report/terminal.js';

export const usage = 'ctxconform baseline REPORT.json [--write FILE]';

const HELP = `usage: ${usage}

The baseline (known failures, for run, replay and sweep --baseline) that a JSON
report calls for: every failing case with its status and the defect it fails with.
Without --write it is printed.

  --write FILE   create FILE, or bring it up to date: entries keep their kind,
                 reason and link (a changed status is updated) while the failure is
                 the one they accept; an entry whose failure is now another defect is
                 written as a new bug entry (its reason was about another failure);
                 an entry without a defect key gets the key of the failure shown;
                 entries whose case now passes are removed, entries of cases the
                 report did not run or skipped are kept; new entries are bugs.

An entry: "case/id": {"status": "fail", "kind": "bug" | "by-design", "reason": "...",
  "link": "...", "defect": {"checks": [...], "members": [...], "paths": [...]}}
The defect is what the entry accepts: a failure of the id with another defect is a
new failure, and fails the run. A golden case's key is its differing members; a
property's or replayed request's also the paths where its shrunk counterexample
differs (and a replayed request's, the checks that failed). "case/id": "fail", or an
entry without "defect", accepts any failure with that status (with a warning).
by-design marks a deliberate departure from the spec: every report shows those apart.
Schema: protocol/schemas/baseline.schema.json.`;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { write: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    out(HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`expected one report file, got ${positionals.length}\nusage: ${usage}`);
  let report: Report;
  let previous: Record<string, BaselineEntry> = {};
  try {
    report = readReport(positionals[0]!);
    if (values.write !== undefined && existsSync(values.write)) previous = loadBaselineEntries(values.write);
  } catch (e) {
    if (e instanceof ReportFileError) throw new UsageError(e.message);
    throw e;
  }
  const u = updateBaseline(previous, report);
  const text = formatBaseline(u.entries);
  if (values.write === undefined) {
    print(text);
    return EXIT_OK;
  }
  mkdirSync(dirname(values.write), { recursive: true });
  writeFileSync(values.write, text);
  const ids = Object.keys(u.entries);
  const parts = [
    `${plural(u.added.length, 'new entry', 'new entries')}`,
    `${u.changed.length} with a changed status`,
    `${u.removed.length} removed (now pass)`,
    `${u.untouched.length} not run and kept`,
    ...(u.rekeyed.length > 0 ? [`${u.rekeyed.length} re-keyed`] : []),
    ...(u.redefined.length > 0 ? [`${u.redefined.length} failing with another defect`] : []),
  ];
  out(`wrote ${values.write}: ${plural(ids.length, 'entry', 'entries')}; ${parts.join(', ')}`);
  const shown = terminalValue;
  for (const id of u.removed) out(`  removed ${shown(id)} (now passes)`);
  for (const id of u.changed) out(`  ${shown(id)}: ${previous[id]!.status} -> ${u.entries[id]!.status}`);
  for (const id of u.rekeyed) out(`  re-keyed ${shown(id)}: it accepts ${shown(describeDefect(u.entries[id]!.defect!))} now, and no other failure`);
  for (const id of u.redefined) {
    const old = previous[id]!;
    out(
      `  ${shown(id)} fails with another defect (${shown(describeDefect(u.entries[id]!.defect!))}; the entry ` +
        `accepted ${shown(describeDefect(old.defect!))}): written as a new bug entry${old.reason !== undefined ? `; its reason was ${JSON.stringify(old.reason)}` : ''}`,
    );
  }
  const bare = ids.filter((id) => u.entries[id]!.reason === undefined);
  if (bare.length > 0)
    out(
      `${plural(bare.length, 'entry has', 'entries have')} no reason yet: add "reason" (and "link") so a report says why: ${bare.slice(0, 10).map(shown).join(', ')}${bare.length > 10 ? ', ...' : ''}`,
    );
  return EXIT_OK;
}
