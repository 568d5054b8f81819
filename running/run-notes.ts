/**
 * What a run's results say about the way the implementation was reached,
 * not about its answers: lines printed once, after the failures, where a
 * pattern over many results has one cause the case lines cannot name. Each
 * transport's entry says which readings apply to it (its `notes`):
 *
 * - answers that are not JSON, from a process, are almost always a log line
 *   written to stdout, where the protocol's answers go (SPEC PROTO-3);
 * - answers over a socket that take the delayed-ACK interval (about 40 ms on
 *   Linux) are a server writing its answer in pieces with Nagle's algorithm
 *   on: its last write waits for an ACK the client delays.
 */
import type { CaseResult, Report } from '../protocol/types.js';
import { terminalValue } from '../report/terminal.js';
import { transportNamed } from './transports.js';

/** At least this many exchanges before a timing pattern is read. */
const TIMED_AT_LEAST = 10;
/** Linux delays an ACK 40 ms at least; the answers such a server gives land just above it. */
const DELAYED_ACK_MS: readonly [number, number] = [38, 60];

const NOT_JSON = /^answer is not a JSON object: (.*)$/m;

/** Answers that are not JSON: one line naming stdout, and the first of them. */
export function answersNotJson(cases: readonly CaseResult[]): string[] {
  const hit = cases.flatMap((c) => {
    const m = c.status === 'error' ? NOT_JSON.exec(c.message ?? '') : null;
    return m ? [m[1]!] : [];
  });
  if (hit.length === 0) return [];
  return [
    `${hit.length} answer${hit.length === 1 ? ' was' : 's were'} not JSON: the implementation writes something ` +
      `else to stdout, where its answers go (logs belong on stderr); the first: ${terminalValue(hit[0]!.slice(0, 120))}`,
  ];
}

/** Most one-exchange results at the delayed-ACK interval: one line naming Nagle's algorithm and TCP_NODELAY. */
export function delayedAcknowledgements(cases: readonly CaseResult[]): string[] {
  // A golden case is one exchange: its duration is that exchange's.
  const timed = cases.filter((c) => c.kind === 'case' && (c.status === 'pass' || c.status === 'fail')).map((c) => c.duration_ms);
  if (timed.length < TIMED_AT_LEAST) return [];
  const [lo, hi] = DELAYED_ACK_MS;
  const at = timed.filter((ms) => ms >= lo && ms < hi).length;
  if (at * 2 <= timed.length) return [];
  return [
    `${at} of ${timed.length} HTTP answers took ${lo} to ${hi} ms, the interval a client waits before it ` +
      `acknowledges: the server likely writes each answer in more than one piece with Nagle's algorithm on (Python's ` +
      `http.server does), so its last piece waits for that acknowledgement. Set TCP_NODELAY on the server's sockets (docs/running.md, "HTTP and Nagle's algorithm")`,
  ];
}

/** The lines the transport that reached the implementation reads off the results; none when nothing stands out. */
export function runNotes(report: Report, adapter: string | undefined = report.run?.adapter): string[] {
  return adapter === undefined ? [] : (transportNamed(adapter)?.notes?.(report.cases) ?? []);
}
