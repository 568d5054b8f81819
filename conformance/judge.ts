/**
 * The judge: one answer against one golden case. Pure; the runner supplies the
 * answer through any adapter. Checks, in order: the transport outcome, the
 * answer's shape against the result schema (a violation is `error`, not
 * `fail`), the invariants every result owes (RES-2, RES-3, TIER-9, CLS-1),
 * then each matcher the case lists. With declared constants (SPEC section 17)
 * a tiered case's matchers are first re-derived where they depend on them
 * (declared.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { declaredConstants, expectationUnder } from './declared.js';
import { markedContext } from './markers.js';
import { reasonClass } from './reasons.js';
import { sameValue } from './same-value.js';
import { formatErrors, validators } from '../protocol/schemas.js';
import type { Expectation, GoldenCase, Verdict } from './types.js';
import type { Manifest, Outcome } from '../protocol/types.js';

const CORE_MEMBERS = ['context', 'included', 'estimated_tokens', 'total_budget', 'omissions'] as const;
const WORKING_CONTEXT_MEMBERS = ['segments', 'truncated', 'warnings', 'generated_at'] as const;

export interface Mismatch {
  member: string;
  expected: unknown;
  actual: unknown;
  note?: string;
}

interface ResultLike {
  context: string;
  included: string[];
  estimated_tokens: number;
  total_budget: number;
  omissions: { block_id: string; reason: string }[];
  segments?: { block_id: string; [k: string]: unknown }[];
  truncated?: boolean;
  warnings?: { code: string; block_id?: string }[];
  generated_at?: number;
}

/** Whether the manifest lets this case run; the reason when it does not (PROTO-1). */
export function skipReason(c: Pick<GoldenCase, 'profile' | 'capabilities'>, manifest: Manifest): string | undefined {
  if (!manifest.profiles.includes(c.profile)) return `profile ${c.profile} is not declared by the implementation`;
  const missing = c.capabilities.filter((k) => !manifest.capabilities.includes(k));
  if (missing.length > 0) return `capabilit${missing.length > 1 ? 'ies' : 'y'} ${missing.join(', ')} not declared by the implementation`;
  return undefined;
}

/** The members a result must have for this profile and manifest (RES-1, RANK-7, WC-1). */
export function expectedMembers(profile: string, capabilities: readonly string[], core: readonly string[] = CORE_MEMBERS): string[] {
  const members = [...core];
  if (profile === 'tiered' && capabilities.includes('working_context')) members.push(...WORKING_CONTEXT_MEMBERS);
  return members;
}

export function judge(c: GoldenCase, outcome: Outcome, manifest: Manifest): Verdict {
  const constants = c.profile === 'tiered' ? declaredConstants(manifest) : undefined;
  if (constants === undefined) return judgeAsWritten(c, outcome, manifest);
  // A case written without markers is matched against a context without them (markerMismatch), so its values come from the reference without them too.
  const caps = c.capabilities.includes('omission_markers') ? manifest.capabilities : manifest.capabilities.filter((k) => k !== 'omission_markers');
  const d = expectationUnder(c, constants, caps, (expect, r) => matcherMismatches({ ...c, expect }, r as ResultLike, caps).map((m) => m.member));
  if (d.derived.length === 0) return judgeAsWritten(c, outcome, manifest);
  const v = judgeAsWritten({ ...c, expect: d.expect }, outcome, manifest);
  // Whoever reads a failure compares it with the case file: say which expected values are not the file's.
  const note = `judged with the declared constants: ${d.derived.join(', ')} from the reference computed with them (SPEC DECL-4)`;
  return { ...v, derived: d.derived, ...(v.status === 'fail' ? { message: `${note}\n${v.message}` } : {}) };
}

function judgeAsWritten(c: GoldenCase, outcome: Outcome, manifest: Manifest): Verdict {
  switch (outcome.kind) {
    case 'timeout':
      return { status: 'timeout', message: outcome.message };
    case 'crash':
      return { status: 'crash', message: outcome.message };
    case 'protocol':
      return { status: 'error', message: outcome.message, ...(outcome.raw !== undefined ? { actual: outcome.raw } : {}) };
    case 'unsendable':
      return { status: 'skip', message: `${outcome.message}; not tested on this transport` };
    case 'error':
      return judgeError(c.expect, outcome);
    case 'result':
      return judgeResult(c, outcome.value, manifest);
  }
}

function judgeError(expect: Expectation, outcome: Extract<Outcome, { kind: 'error' }>): Verdict {
  const valid = validators.error();
  if (!valid(outcome.value)) {
    return { status: 'error', message: `error answer does not match the error schema (ERR-1): ${formatErrors(valid.errors).join('; ')}`, actual: outcome.value };
  }
  if (expect.error === undefined) {
    return {
      status: 'fail',
      message: `expected a result, got the error ${String(outcome.code)}: ${String(outcome.message)}`,
      expected: 'a result',
      actual: { error: { code: outcome.code, message: outcome.message } },
    };
  }
  if (outcome.code !== expect.error) {
    return {
      status: 'fail',
      message: `expected the error ${expect.error}, got the error ${String(outcome.code)}: ${String(outcome.message)}`,
      expected: { error: { code: expect.error } },
      actual: { error: { code: outcome.code, message: outcome.message } },
    };
  }
  return { status: 'pass' };
}

function judgeResult(c: GoldenCase, value: unknown, manifest: Manifest): Verdict {
  const capabilities = c.profile === 'tiered' ? manifest.capabilities : [];
  if (c.expect.error !== undefined) {
    return { status: 'fail', message: `expected the error ${c.expect.error}, got a result`, expected: { error: { code: c.expect.error } }, actual: value };
  }
  const valid = validators.result(c.profile, capabilities);
  if (!valid(value)) {
    return {
      status: 'error',
      message: `answer is not a valid ${c.profile} result for capabilities [${capabilities.join(', ')}] (RES-1): ${formatErrors(valid.errors).join('; ')}`,
      actual: value,
    };
  }
  const answered = value as ResultLike;
  const markers = markerMismatch(c, answered, capabilities);
  // The case's own matchers then see the context without its markers, as the case was written.
  const r = markers.withoutMarkers === undefined ? answered : { ...answered, context: markers.withoutMarkers };
  const mismatches = [...invariantMismatches(c.request, answered), ...markers.mismatches, ...matcherMismatches(c, r, capabilities)];
  if (mismatches.length === 0) return { status: 'pass' };
  const expected: Record<string, unknown> = {};
  const actual: Record<string, unknown> = {};
  for (const m of mismatches) {
    expected[m.member] = m.expected;
    actual[m.member] = m.actual;
  }
  return { status: 'fail', message: mismatches.map(describeMismatch).join('\n'), expected, actual };
}

/**
 * An implementation that declares omission_markers meets cases written
 * without them: its context must hold exactly the markers its own omissions
 * call for (MRK-1..3), and once they are taken out the case is judged as
 * written. A case that lists the capability states its context with markers.
 */
function markerMismatch(c: GoldenCase, r: ResultLike, capabilities: readonly string[]): { mismatches: Mismatch[]; withoutMarkers?: string } {
  if (!capabilities.includes('omission_markers') || c.capabilities.includes('omission_markers')) return { mismatches: [] };
  const m = markedContext(c.request, r.included, r.omissions);
  if (!m) return { mismatches: [] };
  if (m.withMarkers === r.context) return { mismatches: [], withoutMarkers: m.withoutMarkers };
  return { mismatches: [{ member: 'context', expected: m.withMarkers, actual: r.context, note: 'the included blocks with a marker for each budget or max_segments omission, in render order: MRK-1..3' }] };
}

/** What every result owes whatever the case lists. */
function invariantMismatches(request: unknown, r: ResultLike): Mismatch[] {
  const out: Mismatch[] = [];
  const req = request as { budget?: unknown; blocks?: unknown };
  if (Array.isArray(req?.blocks)) {
    const ids = req.blocks.map((b: { block_id?: unknown }) => String(b?.block_id));
    const seen = [...r.included, ...r.omissions.map((o) => o.block_id)];
    const missing = ids.filter((id) => !seen.includes(id));
    const counts = new Map<string, number>();
    for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    const unknown = seen.filter((id) => !ids.includes(id));
    if (missing.length + twice.length + unknown.length > 0) {
      out.push({
        member: 'partition',
        expected: 'every block exactly once in included or omissions (RES-2)',
        actual: { missing, more_than_once: twice, not_in_request: unknown },
      });
    }
  }
  if (typeof req?.budget === 'number') {
    if (r.total_budget !== req.budget) out.push({ member: 'total_budget', expected: req.budget, actual: r.total_budget, note: 'RES-3' });
    if (r.estimated_tokens > req.budget) out.push({ member: 'estimated_tokens', expected: `<= ${req.budget}`, actual: r.estimated_tokens, note: 'TIER-9' });
  }
  const unmapped = r.omissions.filter((o) => reasonClass(o.reason) === undefined);
  if (unmapped.length > 0) {
    out.push({ member: 'omission_reasons', expected: 'reasons from the class table (CLS-1)', actual: unmapped });
  }
  return out;
}

function matcherMismatches(c: GoldenCase, r: ResultLike, capabilities: readonly string[]): Mismatch[] {
  const e = c.expect;
  const out: Mismatch[] = [];
  // Numbers by value: an answer may write -0 or 0, 1.0 or 1 (SPEC section 7, how answers are compared).
  const check = (member: string, expected: unknown, actual: unknown, note?: string): void => {
    if (!sameValue(expected, actual)) out.push({ member, expected, actual, ...(note ? { note } : {}) });
  };
  if (e.included) check('included', e.included, r.included);
  if (e.omissions) {
    const actual: Record<string, string> = {};
    for (const o of r.omissions) actual[o.block_id] = reasonClass(o.reason) ?? `unmapped: ${o.reason}`;
    check('omissions', sortKeys(e.omissions), sortKeys(actual), 'by reason class');
  }
  if (e.omission_order) check('omission_order', e.omission_order, r.omissions.map((o) => o.block_id));
  if (e.omissions_exact) check('omissions_exact', e.omissions_exact, r.omissions.map((o) => ({ block_id: o.block_id, reason: o.reason })));
  if (e.estimated_tokens !== undefined) check('estimated_tokens', e.estimated_tokens, r.estimated_tokens);
  if (e.total_budget !== undefined) check('total_budget', e.total_budget, r.total_budget);
  if (e.context !== undefined) check('context', e.context, r.context);
  for (const s of e.context_contains ?? []) {
    if (!r.context.includes(s)) out.push({ member: 'context_contains', expected: s, actual: r.context, note: 'substring missing' });
  }
  for (const s of e.context_excludes ?? []) {
    if (r.context.includes(s)) out.push({ member: 'context_excludes', expected: `no ${JSON.stringify(s)}`, actual: r.context, note: 'forbidden substring present' });
  }
  if (e.result_members) {
    check('result_members', expectedMembers(c.profile, capabilities, e.result_members).sort(), Object.keys(r).sort());
  }
  if (e.truncated !== undefined) check('truncated', e.truncated, r.truncated);
  if (e.generated_at !== undefined) check('generated_at', e.generated_at, r.generated_at);
  if (e.warnings) {
    const norm = (ws: { code: string; block_id?: string }[]): string[] =>
      ws.map((w) => JSON.stringify([w.code, w.block_id ?? null])).sort();
    const actual = r.warnings ?? [];
    if (!isDeepStrictEqual(norm(e.warnings), norm(actual))) {
      out.push({ member: 'warnings', expected: e.warnings, actual: actual.map((w) => ({ code: w.code, ...(w.block_id !== undefined ? { block_id: w.block_id } : {}) })), note: 'as a set of {code, block_id}' });
    }
  }
  if (e.segments) {
    const actual = (r.segments ?? []).map((s, i) => {
      const want = e.segments![i];
      if (!want) return s;
      const picked: Record<string, unknown> = {};
      for (const k of Object.keys(want)) picked[k] = s[k];
      return picked;
    });
    check('segments', e.segments, actual);
  }
  return out;
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** One member's difference on one line: `member (note): expected X, got Y`, or where a context first differs. */
export function describeMismatch(m: Mismatch): string {
  const note = m.note ? ` (${m.note})` : '';
  if (typeof m.expected === 'string' && typeof m.actual === 'string' && m.member === 'context') {
    return `context${note}: ${firstDifference(m.expected, m.actual)}`;
  }
  return `${m.member}${note}: expected ${compact(m.expected)}, got ${compact(m.actual)}`;
}

/** Where two strings first differ, with a little of each around it. */
export function firstDifference(expected: string, actual: string): string {
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  const from = Math.max(0, i - 20);
  return `first difference at index ${i}: expected …${JSON.stringify(expected.slice(from, i + 30))}…, got …${JSON.stringify(actual.slice(from, i + 30))}…`;
}

export function compact(x: unknown, max = 300): string {
  const s = JSON.stringify(x) ?? String(x);
  return s.length > max ? s.slice(0, max) + '…' : s;
}
