/**
 * Judging with declared constants (SPEC section 17). An implementation that
 * declares its own tiered constants is held to the reference computed with
 * them: a golden case keeps every matcher the reference, so computed, still
 * meets (validation, rendering bytes, expiry, hostile text: judged as
 * written), and takes the expected value of each other matcher from that
 * reference answer, in the matcher's own form (reason classes, warnings as a
 * set, the segment members the case names). Which matchers depend on the
 * constants is thus derived from what each case checks, for each
 * declaration, and never guessed.
 */
import { assemble, CAPABILITIES, CHARS_PER_TOKEN, constantsProblems, isErrorAnswer, SOURCE_TO_TIER, TIER_PERCENT, TIERS } from '../../reference/index.js';
import type { Capability, Result } from '../../reference/index.js';
import type { DeclaredConstants, Manifest } from '../../protocol/types.js';
import { reasonClass } from './reasons.js';
import type { Expectation, GoldenCase } from '../types.js';

/** The tier a source has under the specification (TIER-1). */
const specTier = (source: string): string => (Object.hasOwn(SOURCE_TO_TIER, source) ? SOURCE_TO_TIER[source]! : 'working');

/** Whether a declaration changes nothing: every member absent or equal in effect to the specification's. */
export function isSpecConstants(c: DeclaredConstants): boolean {
  if (c.chars_per_token !== undefined && c.chars_per_token !== CHARS_PER_TOKEN) return false;
  if (c.tier_fractions !== undefined && TIERS.some((t) => c.tier_fractions![t] !== TIER_PERCENT[t])) return false;
  return Object.entries(c.source_to_tier ?? {}).every(([source, tier]) => specTier(source) === tier);
}

/**
 * The constants tiered is judged with for this manifest: its declaration when
 * it changes something, else undefined (the specification's, plain tiered).
 * Throws for an invalid declaration, which the runner refuses before a run.
 */
export function declaredConstants(manifest: Pick<Manifest, 'constants'>): DeclaredConstants | undefined {
  const c = manifest.constants;
  if (c === undefined) return undefined;
  const problems = constantsProblems(c);
  if (problems.length > 0) throw new Error(`the manifest declares invalid constants: ${problems.map((p) => `/constants${p.path}: ${p.message}`).join('; ')}`);
  return isSpecConstants(c) ? undefined : c;
}

/** The reference's answer with the declared constants, for the capabilities the implementation declares. */
export function referenceUnder(request: unknown, constants: DeclaredConstants, capabilities: readonly string[]): ReturnType<typeof assemble> {
  const caps = CAPABILITIES.filter((k) => capabilities.includes(k)) as Capability[];
  return assemble(request, { constants, capabilities: caps });
}

/** A case's expectation under declared constants, and the matchers whose values came from the reference (empty: as written). */
export interface DerivedExpectation {
  expect: Expectation;
  derived: string[];
}

/** The matchers of an expectation a result does not meet, by member name (judge.ts checks them). */
export type UnmetMatchers = (expect: Expectation, result: Result) => string[];

const classes = (r: Result): Record<string, string> => Object.fromEntries(r.omissions.map((o) => [o.block_id, reasonClass(o.reason) ?? o.reason]));
const warningsOf = (r: Result): NonNullable<Expectation['warnings']> => (r.warnings ?? []).map((w) => ({ code: w.code, ...(w.block_id !== undefined ? { block_id: w.block_id } : {}) }));

/** The value of one matcher, read from the reference's result in the form the case writes it. */
function fromReference(member: string, e: Expectation, r: Result): Partial<Expectation> | undefined {
  switch (member) {
    case 'included':
      return { included: r.included };
    case 'omissions':
      return { omissions: classes(r) };
    case 'omission_order':
      return { omission_order: r.omissions.map((o) => o.block_id) };
    case 'omissions_exact':
      return { omissions_exact: r.omissions.map((o) => ({ block_id: o.block_id, reason: o.reason })) };
    case 'estimated_tokens':
      return { estimated_tokens: r.estimated_tokens };
    case 'context':
      return { context: r.context };
    case 'truncated':
      return r.truncated === undefined ? undefined : { truncated: r.truncated };
    case 'warnings':
      return { warnings: warningsOf(r) };
    case 'segments': {
      // The members the case names, for every segment the reference has.
      const keys = [...new Set((e.segments ?? []).flatMap((s) => Object.keys(s)))] as (keyof NonNullable<Expectation['segments']>[number])[];
      return { segments: (r.segments ?? []).map((s) => Object.fromEntries(keys.map((k) => [k, s[k]])) as NonNullable<Expectation['segments']>[number]) };
    }
    case 'context_contains':
    case 'context_excludes': {
      // A substring the blocks the constants admit do not (or do) bring: the whole context stands in for it.
      const contains = member === 'context_contains';
      const kept = (e[member] ?? []).filter((s) => r.context.includes(s) === contains);
      return { [member]: kept, context: r.context };
    }
    default:
      // total_budget, generated_at, result_members: nothing the constants change.
      return undefined;
  }
}

/** What a case whose request the reference answers with a result expects of it, in full. */
function wholeResult(r: Result): Expectation {
  return {
    included: r.included,
    omissions: classes(r),
    omission_order: r.omissions.map((o) => o.block_id),
    estimated_tokens: r.estimated_tokens,
    context: r.context,
    ...(r.truncated !== undefined ? { truncated: r.truncated, warnings: warningsOf(r) } : {}),
  };
}

/**
 * SPEC DECL-4: the expectation of a tiered case for an implementation that
 * declares `constants`. A refusal the constants decide (pinned_overflow) is
 * derived like any other member.
 */
export function expectationUnder(c: GoldenCase, constants: DeclaredConstants, capabilities: readonly string[], unmet: UnmetMatchers): DerivedExpectation {
  const a = referenceUnder(c.request, constants, capabilities);
  if (isErrorAnswer(a)) {
    return a.error.code === c.expect.error ? { expect: c.expect, derived: [] } : { expect: { error: a.error.code }, derived: ['error'] };
  }
  if (c.expect.error !== undefined) return { expect: wholeResult(a), derived: ['error'] };
  const expect: Expectation = { ...c.expect };
  const derived = new Set<string>();
  for (const member of new Set(unmet(c.expect, a))) {
    const value = fromReference(member, c.expect, a);
    if (value === undefined) continue;
    Object.assign(expect, value);
    for (const k of Object.keys(value)) derived.add(k);
  }
  return { expect, derived: [...derived] };
}
