/**
 * The judge: one answer against one golden case. Pure; the runner supplies the
 * answer through any adapter, having asked skipReason whether the case runs
 * at all. What the case expects of this implementation is worked out once,
 * from its manifest (expectation.ts: declared constants, markers,
 * capabilities); the answer is then checked against it in order: the
 * transport outcome, the answer's shape against the result schema (a
 * violation is `error`, not `fail`), the invariants every result owes (RES-2,
 * RES-3, TIER-9, CLS-1), the omission markers (markers.ts), then each matcher
 * the case lists (matchers.ts).
 */
import { expectationFor } from './expectation.js';
import type { CaseExpectation } from './expectation.js';
import { anyMatcherMismatches, matcherMismatches } from './matchers.js';
import { reasonClass } from '../vocabulary/reason-classes.js';
import { manifestDesign } from './principles/design.js';
import { anyOnlyFor, caseLevel } from '../vocabulary/levels.js';
import type { Design } from './principles/design.js';
import type { PrincipleBlock } from './principles/finding.js';
import { brokenPrinciples, principlesHeld, principleVerdict } from './principles/verdict.js';
import { malformedErrorVerdict, nonAnswerVerdict } from '../vocabulary/outcome-verdict.js';
import type { Mismatch } from './matchers.js';
import { takeOutMarkers } from './markers.js';
import { partitionBreaks } from './partition.js';
import { formatErrors, validators } from '../protocol/schemas.js';
import { compactJson } from '../protocol/deep-json.js';
import { firstDifference } from '../vocabulary/first-difference.js';
import type { Expectation, GoldenCase, Verdict } from '../vocabulary/types.js';
import type { Manifest, Outcome } from '../protocol/types.js';
import type { Result } from '../protocol/assembly.js';

type Judged = Pick<GoldenCase, 'profile' | 'capabilities'> & { expect?: Pick<Expectation, 'error'> };

/** Whether the manifest lets this case run; the reason when it does not (PROTO-1, LVL-2). */
export function skipReason(c: Judged, manifest: Manifest): string | undefined {
  if (c.profile === 'any') {
    if (!manifest.profiles.includes('any') && !manifest.profiles.includes('tiered'))
      return "profile any is not declared by the implementation (the any level's cases run for any and tiered manifests)";
  } else if (!manifest.profiles.includes(c.profile) && !anyOnlyFor(c, manifest)) {
    return `profile ${c.profile} is not declared by the implementation`;
  }
  if (c.expect?.error === 'invalid_request' && anyOnlyFor(c, manifest) && manifest.validates !== true) {
    return 'validation: not declared by the implementation (SPEC LVL-2: "validates": true opts in)';
  }
  const missing = c.capabilities.filter((k) => !manifest.capabilities.includes(k));
  if (missing.length > 0) return `capabilit${missing.length > 1 ? 'ies' : 'y'} ${missing.join(', ')} not declared by the implementation`;
  return undefined;
}

/** `design`: the manifest's declared design, prepared (judging/principles/design.ts); needed for the any level's cases when it declares a tokenizer. */
export function judge(c: GoldenCase, outcome: Outcome, manifest: Manifest, design?: Design): Verdict {
  if (caseLevel(c, manifest) === 'any') return judgeByPrinciples(c, outcome, manifest, design ?? manifestDesign(manifest));
  const expected = expectationFor(c, manifest);
  const v = judgeOutcome(c.request, outcome, expected);
  // A verdict says which expected values are not the case file's, and a failure says it first.
  if (expected.note === undefined) return v;
  return { ...v, derived: expected.derived, ...(v.status === 'fail' ? { message: `${expected.note}\n${v.message}` } : {}) };
}

/** A case at the any level: the principles, then the matchers the level allows; the omission markers taken out first when declared. */
function judgeByPrinciples(c: GoldenCase, outcome: Outcome, manifest: Manifest, design: Design): Verdict {
  const v = judgeByPrinciplesHeld(c, outcome, manifest, design);
  if (c.profile !== 'any') return v;
  // A case of principles the design is not held to (a render that names no block, an order or a fill not declared) is not run, and no result claims them.
  const held = new Set(principlesHeld(manifest.capabilities, design));
  const unheld = (id: string): boolean => id.startsWith('ANY-') && id !== 'ANY-12' && !held.has(id) && NOT_HELD[id] !== undefined;
  const own = c.requirements.filter((id) => id !== 'ANY-12');
  // A render that names some blocks judges provenance for those: a case none of whose blocks it names puts ANY-10 to no test.
  if (own.length > 0 && own.every((id) => id === 'ANY-10') && held.has('ANY-10') && !requestNamed(c.request, design)) {
    return { status: 'skip', message: UNNAMED };
  }
  if (own.length > 0 && own.every(unheld)) {
    // Provenance a render cannot give is said not judged; an order or a fill the design keeps as its own leaves the case to the principles it is held to, as a tiered case is (LVL-3).
    if (own.includes('ANY-10')) return { status: 'skip', message: own.map((id) => NOT_HELD[id]).join('; ') };
    return { ...v, requirements: v.broke ?? [...held] };
  }
  const requirements = (v.requirements ?? c.requirements).filter((id) => !unheld(id));
  return requirements.length === (v.requirements ?? c.requirements).length ? v : { ...v, requirements };
}

const UNNAMED =
  'provenance: not judged here: the declared render names none of this request’s blocks (the header or footer each takes writes no {block_id} or {index})';

/** Whether some block of the request takes a header or footer that names it (ANY-10 is judged block by block). */
function requestNamed(request: unknown, design: Design): boolean {
  const blocks = (request as { blocks?: unknown }).blocks;
  return Array.isArray(blocks) && blocks.some((b) => typeof b === 'object' && b !== null && design.namesBlock(b as PrincipleBlock));
}

/** Why a case of one principle is not run for a design, by the principle (principlesHeld says which are held). */
const NOT_HELD: Readonly<Record<string, string>> = {
  'ANY-10': 'provenance: not judged: the declared render names no block (ANY-10: no {block_id} or {index} in its header or footer)',
  'ANY-14': 'the fill is the design’s own (design.fill "own", or an exact profile): a drop for the budget is not judged (ANY-14)',
  'ANY-15': 'no context order declared (design.context_order, DES-8): the order is not judged (ANY-15)',
  'ANY-16': 'no linking member declared (design.groups, DES-9): groups are not judged (ANY-16)',
};

function judgeByPrinciplesHeld(c: GoldenCase, outcome: Outcome, manifest: Manifest, design: Design): Verdict {
  const capabilities = manifest.capabilities;
  let seen = outcome;
  if (outcome.kind === 'result' && capabilities.includes('omission_markers') && validators.result('tiered', capabilities)(outcome.value)) {
    const marked = takeOutMarkers(c.request, outcome.value as Result);
    if (marked.mismatches.length === 0) seen = { ...outcome, value: { ...(outcome.value as Result), context: marked.context } };
  }
  const v = principleVerdict(c.request, seen, design, capabilities);
  if (c.profile !== 'any') {
    // A tiered case's requirements are tiered's rules: its verdict here speaks for the principles (LVL-3).
    const { findings, ...verdict } = v;
    if (verdict.status === 'skip') return verdict;
    const broken = brokenPrinciples(findings);
    return { ...verdict, requirements: broken.length > 0 ? broken : principlesHeld(capabilities, design), ...(broken.length > 0 ? { broke: broken } : {}) };
  }
  if (v.status !== 'pass' || seen.kind !== 'result') {
    const { findings, ...verdict } = v;
    // A case of the any level keeps its own requirements (what it tests); the principles its answer broke are said apart.
    const broke = brokenPrinciples(findings);
    return broke.length > 0 ? { ...verdict, broke } : verdict;
  }
  const mismatches = anyMatcherMismatches(c.expect, seen.value as Result);
  if (mismatches.length === 0) return { status: 'pass' };
  return {
    status: 'fail',
    message: mismatches.map(describeMismatch).join('\n'),
    expected: Object.fromEntries(mismatches.map((m) => [m.member, m.expected])),
    actual: Object.fromEntries(mismatches.map((m) => [m.member, m.actual])),
  };
}

function judgeOutcome(request: unknown, outcome: Outcome, expected: CaseExpectation): Verdict {
  if (outcome.kind === 'error') return judgeError(expected.matchers, outcome);
  if (outcome.kind === 'result') return judgeResult(request, outcome.value, expected);
  return nonAnswerVerdict(outcome);
}

function judgeError(expect: Expectation, outcome: Extract<Outcome, { kind: 'error' }>): Verdict {
  const malformed = malformedErrorVerdict(outcome);
  if (malformed) return malformed;
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

function judgeResult(request: unknown, value: unknown, expected: CaseExpectation): Verdict {
  const { profile, capabilities, matchers } = expected;
  if (matchers.error !== undefined) {
    return { status: 'fail', message: `expected the error ${matchers.error}, got a result`, expected: { error: { code: matchers.error } }, actual: value };
  }
  const valid = validators.result(profile, capabilities);
  if (!valid(value)) {
    return {
      status: 'error',
      message: `answer is not a valid ${profile} result for capabilities [${capabilities.join(', ')}] (RES-1): ${formatErrors(valid.errors).join('; ')}`,
      actual: value,
    };
  }
  const answered = value as Result;
  const markers = expected.withoutMarkers ? takeOutMarkers(request, answered) : { mismatches: [], context: answered.context };
  const mismatches = [
    ...invariantMismatches(request, answered),
    ...markers.mismatches,
    // The matchers see the context without its markers, as the case was written.
    ...matcherMismatches(matchers, { ...answered, context: markers.context }, profile, capabilities),
  ];
  if (mismatches.length === 0) return { status: 'pass' };
  const expectedValues: Record<string, unknown> = {};
  const actualValues: Record<string, unknown> = {};
  for (const m of mismatches) {
    expectedValues[m.member] = m.expected;
    actualValues[m.member] = m.actual;
  }
  return { status: 'fail', message: mismatches.map(describeMismatch).join('\n'), expected: expectedValues, actual: actualValues };
}

/** What every result owes whatever the case lists. */
function invariantMismatches(request: unknown, r: Result): Mismatch[] {
  const out: Mismatch[] = [];
  const req = request as { budget?: unknown; blocks?: unknown };
  if (Array.isArray(req?.blocks)) {
    const breaks = partitionBreaks(
      req.blocks.map((b: { block_id?: unknown }) => String(b?.block_id)),
      r,
    );
    if (breaks) out.push({ member: 'partition', expected: 'every block exactly once in included or omissions (RES-2)', actual: breaks });
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

/** One member's difference on one line: `member (note): expected X, got Y`, or where a context first differs. */
export function describeMismatch(m: Mismatch): string {
  const note = m.note ? ` (${m.note})` : '';
  if (typeof m.expected === 'string' && typeof m.actual === 'string' && m.member === 'context') {
    return `context${note}: ${firstDifference(m.expected, m.actual)}`;
  }
  return `${m.member}${note}: expected ${compact(m.expected)}, got ${compact(m.actual)}`;
}

/** At most `max` characters of a value's JSON, at any depth and without writing more of it than is shown. */
export function compact(x: unknown, max = 300): string {
  return compactJson(x, max);
}
