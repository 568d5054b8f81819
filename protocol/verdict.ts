/**
 * A run's verdict and the levels it reached, read off its report (SPEC LVL-1):
 * the exit status, every writer and the badge read them here, so whether a
 * run passed is decided in one place and report/ only writes it.
 */
import { declaresLevel, recordedLevel } from './levels.js';
import { principlesNotJudged } from './render-template.js';
import { FAILING, LEVELS } from './types.js';
import type { CaseResult, Level, LevelReached, LevelWord, Report, Status } from './types.js';
import type { DeclaredConstants } from './assembly.js';

export function isFailing(c: { status: Status }): boolean {
  return FAILING.has(c.status);
}

export interface Verdict {
  passed: boolean;
  /** Failing cases a baseline does not expect. */
  unexpected: CaseResult[];
  /** Failing cases the baseline expects (its known bugs and its deviations by design). */
  known: CaseResult[];
  /** Of `known`, the deviations by design: shown apart. */
  byDesign: CaseResult[];
  /** Baseline ids that now pass (they fail the run: the baseline must shrink). */
  stale: string[];
  /** Nothing was put to the test: every result a skip, or none (an empty shard excepted). */
  untested: boolean;
  /** The signal that ended the run before everything was judged. */
  interrupted?: 'SIGINT' | 'SIGTERM';
  /** Records of the run's input it could not read (a line that is not a request, an archive cut short): what was read is all it speaks for. */
  unread: number;
}

/** The run's verdict as the runner's exit status gives it (baseline applied when present). */
export function verdict(report: Report): Verdict {
  const known = new Set(report.baseline?.known ?? []);
  const failing = report.cases.filter(isFailing);
  const stale = report.baseline?.stale ?? [];
  const unexpected = failing.filter((c) => !known.has(c.id));
  const byDesign = new Set(report.baseline?.by_design ?? []);
  const expected = failing.filter((c) => known.has(c.id));
  const s = report.summary;
  // A shard may be empty by the luck of the split: that is no "nothing tested".
  const untested = s.total === s.skip && !report.run?.shard;
  const interrupted = report.run?.interrupted;
  const unread = report.replay?.unreadable ?? 0;
  return {
    passed: unexpected.length === 0 && stale.length === 0 && !untested && interrupted === undefined && unread === 0,
    unread,
    unexpected,
    known: expected,
    byDesign: expected.filter((c) => byDesign.has(c.id)),
    stale,
    untested,
    ...(interrupted !== undefined ? { interrupted } : {}),
  };
}

/**
 * The one set of verdict words, the same in the terminal, Markdown, HTML and
 * JUnit: PASS, PASS (known failures only), PASS (deviations by design only),
 * FAIL, INCOMPLETE (part of the input could not be read, nothing failed),
 * NOTHING TESTED and INTERRUPTED.
 */
export type VerdictWord = 'PASS' | 'PASS (known failures only)' | 'PASS (deviations by design only)' | 'FAIL' | 'INCOMPLETE' | 'NOTHING TESTED' | 'INTERRUPTED';

export function verdictWord(v: Verdict): VerdictWord {
  if (v.interrupted !== undefined) return 'INTERRUPTED';
  if (v.unexpected.length > 0 || v.stale.length > 0) return 'FAIL';
  if (v.unread > 0) return 'INCOMPLETE';
  if (v.untested) return 'NOTHING TESTED';
  if (v.known.length > v.byDesign.length) return 'PASS (known failures only)';
  return v.byDesign.length > 0 ? 'PASS (deviations by design only)' : 'PASS';
}

/** What a run with declared constants is called wherever its profile is named (SPEC section 17): never plain `tiered`. */
export const DECLARED_PROFILE = 'tiered with declared constants';

/** The declared constants tiered was judged with, when they are not the specification's (run.constants). */
export function declaredConstants(report: Pick<Report, 'run'>): DeclaredConstants | undefined {
  return report.run?.constants;
}

/** The declared profiles as a report names them: `tiered` is `tiered with declared constants` when the run had them. */
export function profileNames(report: Pick<Report, 'implementation' | 'run'>): string[] {
  const declared = declaredConstants(report) !== undefined;
  return report.implementation.profiles.map((p) => (declared && p === 'tiered' ? DECLARED_PROFILE : p));
}

const LEVEL_NAMES: Record<Exclude<Level, 'profile'>, string> = { any: 'any design', validation: 'validation', contract: 'contract' };

/**
 * Each level the run speaks for, in the order of LEVELS: a level is named when
 * the manifest declares it or some result at it ran (the any level and
 * validation are always named, so "validation: not declared" is said, never
 * left to be guessed). A level FAILs on a failure the baseline does not know.
 */
export function levelsReached(report: Report): LevelReached[] {
  const v = verdict(report);
  const unexpected = new Set(v.unexpected.map((c) => c.id));
  const out: LevelReached[] = [];
  for (const level of LEVELS) {
    const at = report.cases.filter((c) => c.level === level);
    const more = unlistedAt(report, level);
    const pass = at.filter((c) => c.status === 'pass').length + more.pass;
    const failingAt = at.filter(isFailing);
    const failing = failingAt.length + more.failing;
    const skip = at.filter((c) => c.status === 'skip').length + more.skip;
    const declared = declaresLevel(report.implementation, level);
    const ran = pass + failing > 0;
    if (!ran && !declared && (level === 'profile' || level === 'contract')) continue;
    // A failure counted but not listed is of a listed kind when any is listed; with none listed, nothing says a baseline knows it.
    const word: LevelWord =
      failingAt.some((c) => unexpected.has(c.id)) || (failingAt.length === 0 && more.failing > 0)
        ? 'FAIL'
        : failing > 0
          ? 'PASS (known failures only)'
          : pass > 0
            ? 'PASS'
            : declared
              ? 'not run'
              : 'not declared';
    const name = level === 'profile' ? exactProfiles(report).join(' and ') || 'profile' : LEVEL_NAMES[level];
    const notJudged = level === 'any' && declared ? principlesNotJudged(report.implementation.design) : [];
    out.push({ level, name, word, pass, failing, skip, ...(notJudged.length > 0 ? { not_judged: notJudged } : {}) });
  }
  return out;
}

/**
 * The results a replay or a shadow judged and counted in its summary without listing them
 * (passes past --max-listed, the further requests of a listed kind of disagreement): all at
 * the one level recorded requests are judged at.
 */
function unlistedAt(report: Report, level: Level): { pass: number; failing: number; skip: number } {
  if (report.replay === undefined || level !== recordedLevel(report.implementation)) return { pass: 0, failing: 0, skip: 0 };
  const s = report.summary;
  const listed = report.cases.filter((c) => c.level === level);
  const count = (f: (c: CaseResult) => boolean): number => listed.filter(f).length;
  return {
    pass: Math.max(0, s.pass - count((c) => c.status === 'pass')),
    failing: Math.max(0, s.total - s.pass - s.skip - count(isFailing)),
    skip: Math.max(0, s.skip - count((c) => c.status === 'skip')),
  };
}

function exactProfiles(report: Pick<Report, 'implementation' | 'run'>): string[] {
  return profileNames(report).filter((p) => p !== 'any');
}
