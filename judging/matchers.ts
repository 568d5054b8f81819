/**
 * The matchers a golden case lists, checked against one result, and the
 * reason-class table they and the judge read omissions through (SPEC section
 * 10, CLS-1). Both the judge and the derivation of an expectation under
 * declared constants (expectation.ts) call these checks: the same code says
 * whether an implementation's answer and the reference's own answer meet a
 * case.
 */
import { isDeepStrictEqual } from 'node:util';
import { sameValue } from '../vocabulary/same-value.js';
import type { Expectation } from '../vocabulary/types.js';
import type { Result } from '../protocol/assembly.js';

import { anyReasonClass, reasonClass } from '../vocabulary/reason-classes.js';

/** One member of a result that is not what was expected of it. */
export interface Mismatch {
  member: string;
  expected: unknown;
  actual: unknown;
  note?: string;
}

const CORE_MEMBERS = ['context', 'included', 'estimated_tokens', 'total_budget', 'omissions'] as const;
const WORKING_CONTEXT_MEMBERS = ['segments', 'truncated', 'warnings', 'generated_at'] as const;

/** The members a result must have for this profile and manifest (RES-1, RANK-7, WC-1). */
export function expectedMembers(profile: string, capabilities: readonly string[], core: readonly string[] = CORE_MEMBERS): string[] {
  const members = [...core];
  if (profile === 'tiered' && capabilities.includes('working_context')) members.push(...WORKING_CONTEXT_MEMBERS);
  return members;
}

/** The matchers of `e` that `r` does not meet; `profile` and `capabilities` say which members `result_members` adds. */
export function matcherMismatches(e: Expectation, r: Result, profile: string, capabilities: readonly string[]): Mismatch[] {
  const out: Mismatch[] = [];
  const check = (member: string, expected: unknown, actual: unknown, note?: string): void => {
    // Numbers by value: an answer may write -0 or 0, 1.0 or 1 (SPEC section 7, how answers are compared).
    if (!sameValue(expected, actual)) out.push({ member, expected, actual, ...(note ? { note } : {}) });
  };
  if (e.included) check('included', e.included, r.included);
  if (e.omissions) {
    const actual: Record<string, string> = {};
    for (const o of r.omissions) actual[o.block_id] = reasonClass(o.reason) ?? `unmapped: ${o.reason}`;
    check('omissions', sortKeys(e.omissions), sortKeys(actual), 'by reason class');
  }
  if (e.omission_order)
    check(
      'omission_order',
      e.omission_order,
      r.omissions.map((o) => o.block_id),
    );
  if (e.omissions_exact)
    check(
      'omissions_exact',
      e.omissions_exact,
      r.omissions.map((o) => ({ block_id: o.block_id, reason: o.reason })),
    );
  if (e.estimated_tokens !== undefined) check('estimated_tokens', e.estimated_tokens, r.estimated_tokens);
  if (e.total_budget !== undefined) check('total_budget', e.total_budget, r.total_budget);
  if (e.context !== undefined) check('context', e.context, r.context);
  out.push(...substringMismatches(e, r.context));
  if (e.result_members) {
    check('result_members', expectedMembers(profile, capabilities, e.result_members).sort(), Object.keys(r).sort());
  }
  if (e.truncated !== undefined) check('truncated', e.truncated, r.truncated);
  if (e.generated_at !== undefined) check('generated_at', e.generated_at, r.generated_at);
  if (e.warnings) {
    const norm = (ws: { code: string; block_id?: string }[]): string[] => ws.map((w) => JSON.stringify([w.code, w.block_id ?? null])).sort();
    const actual = r.warnings ?? [];
    const want = norm(e.warnings);
    const got = norm(actual);
    if (!isDeepStrictEqual(want, got)) {
      out.push({
        member: 'warnings',
        expected: e.warnings,
        actual: actual.map((w) => ({ code: w.code, ...(w.block_id !== undefined ? { block_id: w.block_id } : {}) })),
        note: warningsNote(want, got),
      });
    }
  }
  if (e.segments) {
    // Only the members the case names of each segment: the others are the implementation's to choose.
    const actual = (r.segments ?? []).map((s, i) => {
      const want = e.segments![i];
      if (!want) return s;
      const picked: Record<string, unknown> = {};
      for (const k of Object.keys(want)) picked[k] = (s as unknown as Record<string, unknown>)[k];
      return picked;
    });
    check('segments', e.segments, actual);
  }
  return out;
}

/** context_contains and context_excludes: what a context must and must not hold. */
function substringMismatches(e: Expectation, context: string): Mismatch[] {
  const out: Mismatch[] = [];
  for (const s of e.context_contains ?? []) {
    if (!context.includes(s)) out.push({ member: 'context_contains', expected: s, actual: context, note: 'substring missing' });
  }
  for (const s of e.context_excludes ?? []) {
    if (context.includes(s))
      out.push({ member: 'context_excludes', expected: `no ${JSON.stringify(s)}`, actual: context, note: 'forbidden substring present' });
  }
  return out;
}

/** The matchers a case of the any level may list (ANY-12), none of which depends on a design's ranking, tiers or render. */
export function anyMatcherMismatches(e: Expectation, r: Result): Mismatch[] {
  const out: Mismatch[] = [];
  for (const id of e.included_contains ?? []) {
    if (!r.included.includes(id)) out.push({ member: 'included_contains', expected: id, actual: r.included, note: 'a block that must be included' });
  }
  for (const id of e.included_excludes ?? []) {
    if (r.included.includes(id))
      out.push({ member: 'included_excludes', expected: `no ${JSON.stringify(id)}`, actual: r.included, note: 'a block that must not be included' });
  }
  for (const [id, cls] of Object.entries(e.omission_classes ?? {})) {
    const o = r.omissions.find((x) => x.block_id === id);
    const got = o === undefined ? 'not omitted' : (anyReasonClass(o.reason) ?? `unmapped: ${o.reason}`);
    if (got !== cls) out.push({ member: `omission_classes.${id}`, expected: cls, actual: got });
  }
  out.push(...substringMismatches(e, r.context));
  return out;
}

/** Which rule says how often a warning is given (CON-4 for required_ref_omitted, LIF-4 per included block, WC-4 for the rest). */
const ONCE_RULE: Readonly<Record<string, string>> = {
  required_ref_omitted: 'CON-4: exactly once for each must_include id not included',
  disputed_memory_included: 'LIF-4: one per included block',
  superseded_memory_included: 'LIF-4: one per included block',
  stale_consolidation: 'LIF-4: one per included block',
};

/**
 * How the warnings were compared, as the failure says it: as a set while the
 * {code, block_id} pairs themselves differ, and by the rule of "exactly once"
 * when the same pairs are given a different number of times.
 */
function warningsNote(want: readonly string[], got: readonly string[]): string {
  if (!isDeepStrictEqual([...new Set(want)], [...new Set(got)])) return 'as a set of {code, block_id}';
  const count = (xs: readonly string[], k: string): number => xs.filter((x) => x === k).length;
  const off = [...new Set(want)].find((k) => count(want, k) !== count(got, k))!;
  const [code, blockId] = JSON.parse(off) as [string, string | null];
  const rule = ONCE_RULE[code] ?? 'WC-4: each warning exactly once';
  return `each {code, block_id} as often as the rule says, ${rule}: ${code}${blockId !== null ? ` for ${blockId}` : ''} given ${count(got, off)} times, expected ${count(want, off)}`;
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
