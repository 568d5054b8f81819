/**
 * What an HTTP answer to `POST /assemble` means (SPEC PROTO-4): 200 a result,
 * 422 an error answer, 5xx a failed server, anything else a protocol error.
 * The http adapter reads its answers with it, and the shadow proxy reads the
 * answers it passed through with it, so both judge the same bytes alike.
 */
import type { Outcome } from '../protocol/types.js';
import { errorOutcome, quote, rawOf } from './outcome.js';

export function httpAnswerOutcome(status: number, text: string): Outcome {
  if (status >= 500) return { kind: 'crash', message: `the server failed: HTTP ${status} ${quote(text)}` };
  if (status !== 200 && status !== 422) {
    return { kind: 'protocol', message: `expected HTTP 200 (result) or 422 (error answer), got ${status}: ${quote(text)}`, raw: rawOf(text) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'protocol', message: `HTTP ${status} body is not JSON: ${quote(text)}`, raw: rawOf(text) };
  }
  if (status === 200) return { kind: 'result', value };
  const e = (value as { error?: unknown } | null)?.error;
  if (typeof e !== 'object' || e === null) {
    return { kind: 'protocol', message: `HTTP 422 body is not an error answer {"error": {...}}: ${quote(text)}`, raw: rawOf(text) };
  }
  return errorOutcome(value, e);
}
