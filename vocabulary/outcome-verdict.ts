/**
 * What an outcome is before anything is judged of its content: the one
 * reading the golden-case judge and the principles share, so a timeout, a
 * crash, an unreadable answer or a malformed error is the same verdict at
 * every level.
 */
import { formatErrors, validators } from '../protocol/schemas.js';
import type { Outcome } from '../protocol/types.js';
import type { Verdict } from './types.js';

/** An outcome that carries no answer to judge. */
export type NonAnswer = Exclude<Outcome, { kind: 'result' | 'error' }>;

/** The verdict of an outcome that carries no answer to judge. */
export function nonAnswerVerdict(outcome: NonAnswer): Verdict {
  switch (outcome.kind) {
    case 'timeout':
      return { status: 'timeout', message: outcome.message };
    case 'crash':
      return { status: 'crash', message: outcome.message };
    case 'protocol':
      return { status: 'error', message: outcome.message, ...(outcome.raw !== undefined ? { actual: outcome.raw } : {}) };
    case 'unsendable':
      return { status: 'skip', message: `${outcome.message}; not tested on this transport` };
  }
}

/** The verdict of an error answer that does not match the error schema (ERR-1), or undefined when it does. */
export function malformedErrorVerdict(outcome: Extract<Outcome, { kind: 'error' }>): Verdict | undefined {
  const valid = validators.error();
  if (valid(outcome.value)) return undefined;
  return {
    status: 'error',
    message: `error answer does not match the error schema (ERR-1): ${formatErrors(valid.errors).join('; ')}`,
    actual: outcome.value,
  };
}
