/**
 * What a golden case expects of one implementation, worked out once from its
 * manifest before any answer is looked at: the matchers' expected values, the
 * capabilities the result is held to, and whether the context's omission
 * markers are taken out before matching.
 *
 * With declared constants (SPEC section 17, DECL-4) an implementation is held
 * to the reference computed with them: a tiered case keeps every matcher the
 * reference, so computed, still meets (validation, rendering bytes, expiry,
 * hostile text: judged as written), and takes the expected value of each
 * other matcher from that reference answer, in the matcher's own form (reason
 * classes, warnings as a set, the segment members the case names). Which
 * matchers depend on the constants is thus derived from what each case
 * checks, for each declaration, and never guessed.
 */
import { assemble, CHARS_PER_TOKEN, constantsProblems, isErrorAnswer, SOURCE_TO_TIER, TIER_PERCENT, TIERS } from '../reference/index.js';
import { CAPABILITIES } from '../protocol/assembly.js';
import type { Capability } from '../protocol/assembly.js';
import type { Manifest } from '../protocol/types.js';
import type { DeclaredConstants, Result } from '../protocol/assembly.js';
import { matcherMismatches } from './matchers.js';
import { reasonClass } from '../vocabulary/reason-classes.js';
import type { Expectation, GoldenCase } from '../vocabulary/types.js';

/** A case's expectation of one implementation: what the judge compares its answer with. */
export interface CaseExpectation {
  profile: string;
  /** The matchers and their expected values: the case file's, or derived under declared constants. */
  matchers: Expectation;
  /** The matchers whose values came from the reference computed with the declared constants (empty: as written). */
  derived: string[];
  /** The capabilities the result is held to (schema, result_members): the manifest's for a tiered case, none for a ranked one. */
  capabilities: readonly string[];
  /** Whether the context must hold the markers of MRK-1..3, taken out before the matchers see it. */
  withoutMarkers: boolean;
  /** What a failure says first when some expected values are not the case file's. */
  note?: string;
}

/**
 * Expectations under declared constants already worked out, by case object and
 * by what of the manifest they read (capabilities and constants). Each is a
 * run of the reference, and a case is judged against many answers under one
 * manifest: a diagnosis asks its judge about every candidate's answer that
 * differs on a passing case, and a process may judge one corpus many times.
 * Nothing here changes a case or an expectation once made, so one can be
 * handed out again.
 */
const expectations = new WeakMap<GoldenCase, Map<string, CaseExpectation>>();

/** Throws, for a tiered case, when the manifest declares invalid constants (the runner refuses those before a run). */
export function expectationFor(c: GoldenCase, manifest: Manifest): CaseExpectation {
  // Without a declaration nothing is derived: the case as written, no dearer than a lookup.
  if (manifest.constants === undefined || c.profile !== 'tiered') return workOut(c, manifest);
  let byManifest = expectations.get(c);
  if (byManifest === undefined) {
    byManifest = new Map();
    expectations.set(c, byManifest);
  }
  const key = JSON.stringify([manifest.capabilities, manifest.constants]);
  let e = byManifest.get(key);
  if (e === undefined) {
    e = workOut(c, manifest);
    byManifest.set(key, e);
  }
  return e;
}

function workOut(c: GoldenCase, manifest: Manifest): CaseExpectation {
  const capabilities = c.profile === 'tiered' ? manifest.capabilities : [];
  // A case that lists omission_markers states its context with them; any other was written without.
  const withoutMarkers = capabilities.includes('omission_markers') && !c.capabilities.includes('omission_markers');
  const asWritten: CaseExpectation = { profile: c.profile, matchers: c.expect, derived: [], capabilities, withoutMarkers };
  const constants = c.profile === 'tiered' ? declaredConstants(manifest) : undefined;
  if (constants === undefined) return asWritten;
  // The matchers of a case written without markers see a context without them, so the reference answers without them too.
  const referenceCapabilities = withoutMarkers ? capabilities.filter((k) => k !== 'omission_markers') : capabilities;
  const { matchers, derived } = derivedUnder(c, constants, referenceCapabilities);
  if (derived.length === 0) return asWritten;
  // Whoever reads a failure compares it with the case file: say which expected values are not the file's.
  const note = `judged with the declared constants: ${derived.join(', ')} from the reference computed with them (SPEC DECL-4)`;
  return { ...asWritten, matchers, derived, note };
}

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

/**
 * SPEC DECL-4: the matchers of a tiered case for an implementation that
 * declares `constants` and `capabilities`. A refusal the constants decide
 * (pinned_overflow) is derived like any other member.
 */
function derivedUnder(c: GoldenCase, constants: DeclaredConstants, capabilities: readonly string[]): { matchers: Expectation; derived: string[] } {
  const caps = CAPABILITIES.filter((k) => capabilities.includes(k)) as Capability[];
  const a = assemble(c.request, { constants, capabilities: caps });
  if (isErrorAnswer(a)) {
    return a.error.code === c.expect.error ? { matchers: c.expect, derived: [] } : { matchers: { error: a.error.code }, derived: ['error'] };
  }
  if (c.expect.error !== undefined) return { matchers: wholeResult(a), derived: ['error'] };
  const matchers: Expectation = { ...c.expect };
  const derived = new Set<string>();
  for (const member of new Set(matcherMismatches(c.expect, a, c.profile, capabilities).map((m) => m.member))) {
    const value = fromReference(member, c.expect, a);
    if (value === undefined) continue;
    Object.assign(matchers, value);
    for (const k of Object.keys(value)) derived.add(k);
  }
  return { matchers, derived: [...derived] };
}

const classes = (r: Result): Record<string, string> => Object.fromEntries(r.omissions.map((o) => [o.block_id, reasonClass(o.reason) ?? o.reason]));
const warningsOf = (r: Result): NonNullable<Expectation['warnings']> =>
  (r.warnings ?? []).map((w) => ({ code: w.code, ...(w.block_id !== undefined ? { block_id: w.block_id } : {}) }));

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
