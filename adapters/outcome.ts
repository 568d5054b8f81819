/**
 * How an answer reads as an Outcome, in one place for every adapter: the
 * in-process adapter and the --module worker apply the same PROTO-2 rules to
 * a returned or thrown value, and stdio and http quote unreadable answers alike.
 */
import type { Outcome } from '../protocol/types.js';

/** How much of an unreadable answer a message quotes. */
const QUOTE_CHARS = 200;
/** How much of an unreadable answer an Outcome keeps as `raw`. */
const RAW_CHARS = 4096;

export function quote(s: string): string {
  return JSON.stringify(s.length > QUOTE_CHARS ? s.slice(0, QUOTE_CHARS) + '…' : s);
}

export function rawOf(s: string): string {
  return s.slice(0, RAW_CHARS);
}

/** An error answer `{error: {code, message}}` (`value` as the implementation gave it). */
export function errorOutcome(value: unknown, error: unknown): Outcome {
  const e = error as { code?: unknown; message?: unknown } | null | undefined;
  return { kind: 'error', code: e?.code, message: e?.message, value };
}

/** An object with an `error` member is an error answer: a result never has one (PROTO-2). */
export function isErrorAnswer(value: unknown): value is { error: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'error' in value;
}

/** What assemble returned, as an Outcome. */
export function returnedOutcome(value: unknown): Outcome {
  return isErrorAnswer(value) ? errorOutcome(value, value.error) : { kind: 'result', value };
}

/**
 * What assemble threw. A thrown object with a `code` is an error answer
 * (PROTO-2), except a runtime error such as Node's ENOENT: that is a bug in
 * the implementation, reported as a crash of the call rather than as a
 * malformed error answer.
 */
export function thrownOutcome(e: unknown): Outcome {
  if (typeof e === 'object' && e !== null && 'code' in e) {
    const { code, message } = e as { code: unknown; message?: unknown };
    if (!(e instanceof Error) || code === 'invalid_request' || code === 'pinned_overflow') {
      return errorOutcome({ error: { code, message } }, { code, message });
    }
  }
  return { kind: 'crash', message: `assemble threw: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` };
}
