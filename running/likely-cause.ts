/**
 * The diagnosis at the end of a judging run with failures (conclude.ts):
 * the known defects that reproduce the failing answers
 * (diagnosis/), as the report's `diagnosis` member and as the
 * terminal's "likely cause" block, which stands right after the failures.
 * Nothing failing: neither.
 */
import { knownDefectLeads } from '../report/diagnosis.js';
import { visible } from '../report/visible.js';
import { terminalValue } from '../report/terminal.js';
import type { PrincipleCause, Report } from '../protocol/types.js';
import type { Cause, Diagnosis, DiagnoseOptions, Observation } from '../diagnosis/diagnose.js';
import type { LogCounts, ObservationLog } from '../diagnosis/log.js';

/** Failures named in the "not explained" line, at most. */
const NAMED_UNEXPLAINED = 10;
/** Contradicted results named after a cause, at most. */
const NAMED_CONTRADICTED = 3;

export interface LikelyCause {
  /** The report with its `diagnosis`. */
  report: Report;
  /** The terminal block. */
  text: string;
  diagnosis: Diagnosis;
}

/** The diagnosis of what the log kept; undefined when nothing failed. */
export async function likelyCause(report: Report, log: ObservationLog | undefined): Promise<LikelyCause | undefined> {
  if (!log || log.seen.failing === 0) return undefined;
  const { diagnosisEntry } = await import('../diagnosis/diagnose.js');
  const read = await readCauses(log.observations(), report.implementation.profiles.includes('any'));
  if (!read) return undefined;
  const { diagnosis, principles, broken } = read;
  return {
    report: { ...report, diagnosis: diagnosis.causes.map((c) => diagnosisEntry(c)), ...(broken.length > 0 ? { principles: broken } : {}) },
    text: likelyCauseText(diagnosis, log.seen, principles),
    diagnosis,
  };
}

/**
 * The catalogue's causes of the failing observations, and the lines of the
 * principles broken by the failures no cause explains (all of them when none does).
 */
export async function readCauses(
  observations: readonly Observation[],
  atAnyLevel: boolean,
  options: DiagnoseOptions = {},
): Promise<{ diagnosis: Diagnosis; principles: string[]; broken: PrincipleCause[] } | undefined> {
  const { diagnose } = await import('../diagnosis/diagnose.js');
  const diagnosis = diagnose(observations, options);
  if (!diagnosis) return undefined;
  // What no catalogue model reproduces: the principles its answers break whatever the design are the causes that hold.
  let principles: string[] = [];
  let broken: PrincipleCause[] = [];
  if (diagnosis.causes.length === 0 || diagnosis.unexplained.length > 0) {
    const { readPrinciples, principleLines, principlesDesign } = await import('../diagnosis/principles.js');
    const some = diagnosis.causes.length > 0;
    const design = await principlesDesign(observations);
    const reading = design && readPrinciples(observations, design, some ? new Set(diagnosis.unexplained) : undefined);
    if (reading) {
      principles = principleLines(reading, diagnosis.failing, atAnyLevel, some);
      broken = reading.broken;
    }
  }
  return { diagnosis, principles, broken };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function named(ids: readonly string[], max: number): string {
  return ids.slice(0, max).map(terminalValue).join(', ') + (ids.length > max ? `, … and ${ids.length - max} more` : '');
}

/** One cause on one line: "id [requirements]: sentence — explains 19 of 23 failures, contradicts none". */
function causeLine(c: Pick<Cause, 'id' | 'requirements' | 'summary' | 'explains' | 'failing' | 'contradicts' | 'contradicted'>): string {
  const contradicts = c.contradicts === 0 ? 'none' : `${c.contradicts} (${named(c.contradicted, NAMED_CONTRADICTED)})`;
  return `${c.id.replace('+', ' + ')} [${c.requirements.join(', ')}]: ${c.summary} — explains ${c.explains} of ${plural(c.failing, 'failure')}, contradicts ${contradicts}`;
}

/** The block as the terminal shows it. */
export function likelyCauseText(d: Diagnosis, seen?: LogCounts, principles: readonly string[] = []): string {
  const lines: string[] = [];
  if (d.causes.length === 0) {
    lines.push(`likely cause: none of the known defects reproduces the failing answers exactly (${plural(d.failing, 'failure')}; docs/diagnosis.md)`);
    lines.push(...principles);
  } else if (principles.length > 0 && !knownDefectLeads(d.causes[0])) {
    // No known defect explains most failures, less what it contradicts: the principles they break come first, the partial models after.
    lines.push(`likely cause (no known defect explains most of the ${plural(d.failing, 'failure')}; docs/diagnosis.md):`);
    lines.push(...principles.map((l) => `  ${l}`));
    lines.push(`  known defects whose model answers exactly as the implementation did, for some failures:`);
    for (const c of d.causes) {
      lines.push(`    ${causeLine(c)}`);
      if (c.alike.length > 0) lines.push(`        this run cannot tell it from: ${c.alike.join(', ')}`);
    }
  } else {
    lines.push(`likely cause (known defects whose model answers exactly as the implementation did; docs/diagnosis.md):`);
    for (const c of d.causes) {
      lines.push(`  ${causeLine(c)}`);
      if (c.alike.length > 0) lines.push(`      this run cannot tell it from: ${c.alike.join(', ')}`);
    }
    if (d.unexplained.length > 0) lines.push(`  not explained by these (${d.unexplained.length}): ${named(d.unexplained, NAMED_UNEXPLAINED)}`);
    lines.push(...principles);
  }
  if (seen && (seen.keptFailing < seen.failing || seen.keptPassing < seen.passing)) {
    lines.push(
      `  (read from the first ${seen.keptFailing} of ${seen.failing} failing results and a sample of ${seen.keptPassing} of ${seen.passing} passing ones)`,
    );
  }
  return visible(lines.join('\n'));
}
