/**
 * Reading an implementation's answer for a property, and the view of an
 * answer that two implementations must agree on. A misbehaving implementation
 * (timeout, crash, unreadable or schema-invalid answer) becomes a
 * PropertyFailure with that status, so the shrunk report says what happened.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { reasonClass } from '../../vocabulary/reason-classes.js';
import { formatErrors, validators } from '../../protocol/schemas.js';
import type { Implementation, Outcome, Status } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';
import { samePlainData } from './plain-data.js';
import { malformedErrorVerdict } from '../../vocabulary/outcome-verdict.js';

export interface ResultAnswer {
  kind: 'result';
  /** A result the answer schema has checked (RES-1, WC-2). */
  value: Result;
}
export interface ErrorAnswer {
  kind: 'error';
  code: string;
  message: string;
  value: unknown;
}
export type Answer = ResultAnswer | ErrorAnswer;

/** Thrown inside a property predicate; fast-check keeps the last one of the shrunk run. */
export class PropertyFailure extends Error {
  constructor(
    message: string,
    readonly status: Exclude<Status, 'pass' | 'skip'> = 'fail',
    readonly expected?: unknown,
    readonly actual?: unknown,
    /** The requirements this failure points at, when narrower than the property's (blame.ts). */
    readonly requirements?: string[],
  ) {
    super(message);
  }
}

export function profileOf(request: unknown): string {
  const p = (request as { profile?: unknown } | null)?.profile;
  return p === 'ranked' ? 'ranked' : 'tiered';
}

/** The capabilities whose members a result for this request carries (RANK-7). */
function resultCapabilities(request: unknown, capabilities: readonly string[]): readonly string[] {
  return profileOf(request) === 'tiered' ? capabilities : [];
}

/**
 * The outcome read last, with what it was read for: the checks of one
 * replayed request each read the same outcome in turn, and checking it
 * against the schema once is enough. One entry, not a table of every outcome
 * read: a weak table keeps each answer alive into the old generation (the
 * bench's replay then spent several times as long collecting).
 */
let lastRead: { outcome: Outcome; request: unknown; capabilities: readonly string[]; answer: Answer } | undefined;

/** An Outcome as an Answer, or a PropertyFailure for anything that is not a readable answer. */
export function readAnswer(outcome: Outcome, request: unknown, capabilities: readonly string[]): Answer {
  const last = lastRead;
  if (last && last.request === request && last.capabilities === capabilities) {
    if (last.outcome === outcome) return last.answer;
    // The same request answered again with the same data (the second answer of a determinism check) reads the same.
    if (last.answer.kind === 'result' && outcome.kind === 'result' && samePlainData(last.answer.value, outcome.value)) {
      lastRead = { outcome, request, capabilities, answer: { kind: 'result', value: outcome.value as Result } };
      return lastRead.answer;
    }
  }
  const answer = readOutcome(outcome, request, capabilities);
  lastRead = { outcome, request, capabilities, answer };
  return answer;
}

function readOutcome(outcome: Outcome, request: unknown, capabilities: readonly string[]): Answer {
  switch (outcome.kind) {
    case 'timeout':
      throw new PropertyFailure(`timeout: ${outcome.message}`, 'timeout');
    case 'crash':
      throw new PropertyFailure(`crash: ${outcome.message}`, 'crash');
    case 'protocol':
      throw new PropertyFailure(`unreadable answer: ${outcome.message}`, 'error', undefined, outcome.raw);
    case 'unsendable':
      // Not a request this transport can carry (NaN over JSON): the run is discarded, not judged.
      fc.pre(false);
      throw new Error('unreachable');
    case 'error': {
      const malformed = malformedErrorVerdict(outcome);
      if (malformed) throw new PropertyFailure(malformed.message!, 'error', undefined, outcome.value);
      return { kind: 'error', code: String(outcome.code), message: String(outcome.message), value: outcome.value };
    }
    case 'result': {
      const profile = profileOf(request);
      const caps = resultCapabilities(request, capabilities);
      const valid = validators.result(profile, caps);
      if (!valid(outcome.value)) {
        throw new PropertyFailure(
          `answer is not a valid ${profile} result for capabilities [${caps.join(', ')}] (RES-1): ${formatErrors(valid.errors).join('; ')}`,
          'error',
          undefined,
          outcome.value,
        );
      }
      return { kind: 'result', value: outcome.value as ResultAnswer['value'] };
    }
  }
}

export async function ask(impl: Implementation, request: unknown, capabilities: readonly string[], timeoutMs: number): Promise<Answer> {
  return readAnswer(await impl.assemble(request, { timeoutMs }), request, capabilities);
}

/** Requires a result; an error answer to a valid request is a failure (pinned_overflow excepted when allowed). */
export function requireResult(a: Answer, allowPinnedOverflow: boolean): ResultAnswer | undefined {
  if (a.kind === 'result') return a;
  if (allowPinnedOverflow && a.code === 'pinned_overflow') return undefined;
  throw new PropertyFailure(`a valid request was refused with the error ${a.code}: ${a.message}`, 'fail', 'a result', {
    error: { code: a.code, message: a.message },
  });
}

export function hasPinned(request: unknown): boolean {
  const blocks = (request as { blocks?: unknown } | null)?.blocks;
  return Array.isArray(blocks) && blocks.some((b) => (b as { pinned?: unknown } | null)?.pinned === true);
}

/**
 * What two conforming implementations must agree on: the core members exactly,
 * omissions by reason class in order, the working_context members with
 * warnings as a set of {code, block_id}, errors by code.
 */
export function comparableView(a: Answer, withWorkingContext: boolean): Record<string, unknown> {
  if (a.kind === 'error') return { error: a.code };
  const r = a.value;
  const view: Record<string, unknown> = {
    context: r.context,
    included: r.included,
    estimated_tokens: r.estimated_tokens,
    total_budget: r.total_budget,
    omissions: r.omissions.map((o) => [o.block_id, reasonClass(o.reason) ?? `unmapped: ${o.reason}`]),
  };
  if (withWorkingContext) {
    view.segments = (r.segments ?? []).map((s) => ({
      block_id: s.block_id,
      source: s.source,
      tier: s.tier,
      tokens: s.tokens,
      score: noNegativeZero(s.score),
      reason: s.reason,
    }));
    view.truncated = r.truncated;
    view.generated_at = noNegativeZero(r.generated_at);
    view.warnings = (r.warnings ?? []).map((w) => JSON.stringify([w.code, w.block_id ?? null])).sort();
  }
  return view;
}

/** -0 equals 0 (NUM-5), and JSON cannot tell them apart anyway. */
const noNegativeZero = (x: unknown): unknown => (x === 0 ? 0 : x);

/**
 * Whether two views agree as the differential property judges them: on every
 * member (an absent member and an undefined one alike). The diagnosis judges
 * other answers with this, so it must never disagree with the property.
 */
export function viewsAgree(expected: Record<string, unknown>, actual: Record<string, unknown>): boolean {
  return samePlainData(expected, actual) || viewDifference(expected, actual).members.length === 0;
}

/** The members on which two views differ, as expected/actual objects holding only those. */
export function viewDifference(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
): { members: string[]; expected: Record<string, unknown>; actual: Record<string, unknown> } {
  const members = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].filter((k) => !isDeepStrictEqual(expected[k], actual[k]));
  const pick = (v: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(members.filter((m) => m in v).map((m) => [m, v[m]]));
  return { members, expected: pick(expected), actual: pick(actual) };
}
