/**
 * What a writer shows of a result besides its id, status and message: each
 * kind's own members, read by one exhaustive switch, so a new kind of result
 * is shown by every writer once it is added here.
 */
import type { CaseResult, RepeatAnswer } from '../protocol/types.js';

export interface Shown {
  expected?: unknown;
  actual?: unknown;
  request?: unknown;
  counterexample?: unknown;
  stderr?: string;
  /** Other requests in flight while the stderr was read (some of its lines may be theirs). */
  stderrInFlight?: number;
  /** A property's or a contract run's seed, and a property's fast-check path. */
  seed?: number;
  path?: string;
  answers?: RepeatAnswer[];
  /** A golden case: the spec version since which it holds. */
  since?: string;
}

export function shownOf(c: CaseResult): Shown {
  switch (c.kind) {
    case 'case':
      return {
        expected: c.expected,
        actual: c.actual,
        request: c.request,
        stderr: c.stderr,
        stderrInFlight: c.stderr_in_flight,
        answers: c.answers,
        since: c.since,
      };
    case 'property':
      return { expected: c.expected, actual: c.actual, counterexample: c.counterexample, seed: c.seed, path: c.path, answers: c.answers };
    case 'contract':
      return { actual: c.actual, request: c.request, counterexample: c.counterexample, seed: c.seed, answers: c.answers };
    case 'replay':
    case 'sweep':
      return {
        expected: c.expected,
        actual: c.actual,
        request: c.request,
        counterexample: c.counterexample,
        stderr: c.stderr,
        stderrInFlight: c.stderr_in_flight,
      };
    default: {
      const unknownKind: never = c;
      return unknownKind;
    }
  }
}

/** The line that says whose lines an implementation's stderr may hold, when other requests were in flight. */
export function inFlightNote(others: number): string {
  return `[the process's stderr while this request and ${others} other${others === 1 ? '' : 's'} were in flight; some lines may be theirs]`;
}

/** The stderr as the reports show it: the in-flight note first when there is one. */
export function stderrShown(x: Pick<Shown, 'stderr' | 'stderrInFlight'>): string | undefined {
  if (!x.stderr) return undefined;
  return x.stderrInFlight ? `${inFlightNote(x.stderrInFlight)}\n${x.stderr}` : x.stderr;
}
