/**
 * One recorded request judged as the properties judge a random one: the
 * answer against the reference (`differential`), then the invariants that
 * need no oracle (partition, budget, whole blocks, expiry) on that same
 * answer, then, when the request is sent twice, `determinism`. The checks are
 * the properties' own, run on the answer already received, so a replayed
 * request and a random one are held to exactly the same rules.
 */
import { ContentLengths, validateRequest } from '../../reference/index.js';
import { referenceAnswer } from '../../judging/properties/catalog.js';
import { skipReason } from '../../judging/judge.js';
import { profileOf, PropertyFailure } from '../../judging/properties/answers.js';
import type { Answer } from '../../judging/properties/answers.js';
import { PROPERTIES } from '../../judging/properties/catalog.js';
import type { PropertyDef, PropertyEnv } from '../../judging/properties/property.js';
import { readAnswer } from '../../judging/properties/answers.js';
import { genContext } from '../../judging/properties/arbitraries.js';
import { anyOnly } from '../../protocol/levels.js';
import { prepareDesign } from '../../judging/principles/design.js';
import type { Design } from '../../judging/principles/design.js';
import { principleVerdict } from '../../judging/principles/verdict.js';
import { propertyOfPrinciple } from '../../judging/properties/any-level.js';
import { BlockIndex } from '../../judging/properties/block-index.js';
import type { GenContext } from '../../judging/properties/arbitraries.js';
import { capabilityUses } from '../../vocabulary/capability-uses.js';
import { CAPABILITIES } from '../../protocol/assembly.js';
import type { Implementation, Manifest, Outcome, Status } from '../../protocol/types.js';
import type { Verdict } from '../../vocabulary/types.js';

export interface RecordedVerdict extends Verdict {
  requirements: string[];
  /** The checks that failed, by property name (`answer` when the answer could not be read): part of a baseline key. */
  checks?: string[];
}

export interface Judged {
  verdict: RecordedVerdict;
  /** Time spent on the exchanges with the implementation. */
  ms: number;
  stderr?: string;
  /** Other requests in flight while either answer's stderr was read (the most of the two). */
  stderrInFlight?: number;
  /** The implementation's first answer, when it was a readable one. */
  answer?: Answer;
  /** The first answer as the adapter handed it over (what the diagnosis reads). */
  outcome?: Outcome;
}

export interface JudgeOptions {
  timeoutMs: number;
  /** Send the request a second time and require the same bytes (REQ-2). */
  twice: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: the properties take different inputs; this one is found by name
function property(name: string): PropertyDef<any> {
  const p = PROPERTIES.find((x) => x.name === name);
  if (!p) throw new Error(`the properties have no ${name}; replay judges with it`);
  return p;
}
// biome-ignore lint/suspicious/noExplicitAny: as above
type Verifying = PropertyDef<any> & Required<Pick<PropertyDef<any>, 'verify'>>;

/** A property of the answers to one request: replay verifies the answers it has, as the property would once it had asked. */
function verifying(name: string): Verifying {
  const p = property(name);
  if (!p.verify) throw new Error(`the property ${name} does not verify answers it is given; replay judges with it`);
  return p as Verifying;
}
const DIFFERENTIAL = verifying('differential');
/** The invariants that read one answer to one request. */
const INVARIANTS = ['partition', 'budget', 'whole-blocks', 'expired-never-included'].map(verifying);
const DETERMINISM = verifying('determinism');

/**
 * The capabilities a valid request uses, as SPEC section 8 words it: a pinned
 * block, a `constraints` member, a status other than `active`. (`pinned:
 * false` and `status: active` use nothing.) In `ranked`, none (RANK-7).
 */
export function capabilitiesNeeded(request: unknown): string[] {
  return profileOf(request) === 'ranked' ? [] : [...capabilityUses(request).keys()];
}

/**
 * Why this implementation cannot be judged on this request, if it cannot: a
 * profile it does not declare, or a valid request that uses a capability it
 * does not declare. Validation is core (section 3): an invalid request is
 * judged whatever it carries.
 */
export function recordedSkipReason(request: unknown, manifest: Manifest, valid = isValid(request)): string | undefined {
  const profile = profileOf(request) as 'tiered' | 'ranked';
  // A manifest that declares every capability skips no request for what it uses: the request is not read for it.
  const declaresEvery = CAPABILITIES.every((c) => manifest.capabilities.includes(c));
  const capabilities = valid && !declaresEvery ? capabilitiesNeeded(request) : [];
  // An invalid request is a question of the validation level (LVL-2), which a manifest of the any level alone opts into.
  return skipReason({ profile, capabilities, ...(valid ? {} : { expect: { error: 'invalid_request' } }) }, manifest);
}

function isValid(request: unknown): boolean {
  return typeof request === 'object' && request !== null && validateRequest(request).length === 0;
}

/** The checks' implementation: they verify the answers they are given and never ask (verify, not check). */
const NOT_ASKED: Implementation = {
  describe: () => Promise.reject(new Error('replay checks verify the answers received; they do not ask')),
  assemble: () => Promise.reject(new Error('replay checks verify the answers received; they do not ask')),
  close: async () => {},
};

interface Failure {
  status: Exclude<Status, 'pass' | 'skip'>;
  /** The property that failed; `answer` for an answer that could not be read or checked. */
  check: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  requirements: string[];
}

const SPEC_ID = /\b[A-Z]{2,5}-\d+\b/g;

/** The ids a failure names: its own narrowed list, else the ids its message cites, else the property's. */
function asFailure(e: unknown, def: PropertyDef<unknown> | undefined, env: PropertyEnv): Failure {
  const check = def?.name ?? 'answer';
  if (!(e instanceof PropertyFailure)) {
    return { status: 'error', check, message: `the answer could not be checked: ${e instanceof Error ? e.message : String(e)}`, requirements: [] };
  }
  const cited = [...new Set(e.message.match(SPEC_ID) ?? [])];
  const requirements = e.requirements ?? (cited.length > 0 ? cited : (def?.requirements(env.gen) ?? []));
  return { status: e.status, check, message: e.message, expected: e.expected, actual: e.actual, requirements };
}

/** The property's verdict on the answers already read, the one it gives when it asks for them. */
function verified(def: Verifying, env: PropertyEnv, request: unknown, answers: readonly Answer[]): Failure | undefined {
  try {
    def.verify(env, request, answers);
    return undefined;
  } catch (e) {
    return asFailure(e, def, env);
  }
}

/** A valid request of a manifest of the any level alone: the principles on the answer, no reference (SPEC section 18). */
function principleFailures(request: unknown, first: Outcome, design: Design, manifest: Manifest): Failure[] {
  const v = principleVerdict(request, first, design, manifest.capabilities);
  if (v.status === 'pass' || v.status === 'skip') return [];
  if (v.status !== 'fail') return [{ status: v.status, check: 'answer', message: v.message ?? v.status, actual: v.actual, requirements: [] }];
  return (v.findings ?? []).map((f) => ({
    status: 'fail' as const,
    check: propertyOfPrinciple(f.id) ?? 'any-whole-blocks',
    message: `${f.id} ${f.message}`,
    expected: f.expected,
    actual: f.actual,
    requirements: [f.id],
  }));
}

/**
 * What judging one manifest's requests needs, worked out once for a run (a
 * replay, a sweep, a shadow's judge): its generation context, which validates
 * declared constants, and, for a manifest of the any level alone, its
 * declared design, prepared when first needed (a tokenizer is loaded for it).
 */
export class RecordedJudge {
  readonly gen: GenContext;
  #design: Promise<Design> | undefined;
  constructor(readonly manifest: Manifest) {
    this.gen = genContext(manifest);
  }
  design(): Promise<Design> {
    this.#design ??= prepareDesign(this.manifest);
    return this.#design;
  }
}

/** One request judged for a manifest: a RecordedJudge a run keeps, or a manifest judged afresh. */
export async function judgeRecorded(impl: Implementation, judge: RecordedJudge | Manifest, request: unknown, o: JudgeOptions): Promise<Judged> {
  const j = judge instanceof RecordedJudge ? judge : new RecordedJudge(judge);
  const { gen, manifest } = j;
  // Every check of this request reads its contents' lengths from one table: each is counted once.
  const lengths = new ContentLengths();
  // The reference's answer first: it tells a valid request (the declared constants are valid: genContext
  // checked them), and the differential compares with it.
  const expected = referenceAnswer(request, gen.capabilities, gen.constants, lengths);
  const valid = !(expected.kind === 'error' && expected.code === 'invalid_request');
  const why = recordedSkipReason(request, manifest, valid);
  if (why !== undefined) return { verdict: { status: 'skip', message: why, requirements: [] }, ms: 0 };
  // Written out rather than through closures: this runs once per recorded request.
  const asking = { timeoutMs: o.timeoutMs };
  const t0 = performance.now();
  let first: Outcome;
  try {
    first = await impl.assemble(request, asking);
  } catch (e) {
    return adapterFailed(e, performance.now() - t0);
  }
  let ms = performance.now() - t0;
  if (first.kind === 'unsendable')
    return judged({ status: 'skip', message: `${first.message}; not tested on this transport`, requirements: [] }, ms, first, undefined, undefined, false);

  const env: PropertyEnv = { impl: NOT_ASKED, gen, timeoutMs: o.timeoutMs, lengths, blocks: new BlockIndex(), reference: { request, answer: expected } };
  let answer: Answer;
  try {
    answer = readAnswer(first, request, manifest.capabilities);
  } catch (e) {
    return judged(verdictOf([asFailure(e, undefined, env)]), ms, first, undefined, undefined, true);
  }
  const failures: Failure[] = [];
  const answers = [answer];
  // A manifest of the any level alone: its valid requests are judged by the principles, its invalid ones (validation declared) as ever.
  const principled = valid && anyOnly(gen);
  if (principled) failures.push(...principleFailures(request, first, await j.design(), manifest));
  const differs = principled ? undefined : verified(DIFFERENTIAL, env, request, answers);
  if (differs) failures.push(differs);
  // The invariants read a result; a refusal of a valid request is already the differential failure.
  if (answer.kind === 'result' && valid && !principled) {
    for (const def of INVARIANTS) {
      const f = verified(def, env, request, answers);
      if (f) failures.push(f);
    }
  }
  // Only a readable answer is worth asking for again: a second timeout would cost the limit twice.
  let second: Outcome | undefined;
  if (o.twice) {
    const t1 = performance.now();
    try {
      second = await impl.assemble(request, asking);
    } catch (e) {
      return adapterFailed(e, performance.now() - t0);
    }
    ms += performance.now() - t1;
    let f: Failure | undefined;
    try {
      f = verified(DETERMINISM, env, request, [answer, readAnswer(second, request, manifest.capabilities)]);
    } catch (e) {
      f = asFailure(e, DETERMINISM, env); // the second answer unreadable: determinism's failure, as when it asks
    }
    if (f) failures.push(f);
  }
  return judged(verdictOf(failures), ms, first, second, answer, true);
}

function adapterFailed(e: unknown, ms: number): Judged {
  return { verdict: { status: 'error', message: `the adapter failed: ${e instanceof Error ? e.message : String(e)}`, requirements: [] }, ms };
}

/** A judged request, with the stderr of its answers (`first`, then `second`), its first answer read, and, with `keepOutcome`, the first as it came (what the diagnosis reads). */
function judged(verdict: RecordedVerdict, ms: number, first: Outcome, second: Outcome | undefined, answer: Answer | undefined, keepOutcome: boolean): Judged {
  const out: Judged = { verdict, ms };
  if (keepOutcome) out.outcome = first;
  const stderr = (first.stderr ?? '') + (second?.stderr ?? '');
  if (stderr) out.stderr = stderr;
  const inFlight = Math.max(first.stderr ? (first.stderrInFlight ?? 0) : 0, second?.stderr ? (second.stderrInFlight ?? 0) : 0);
  if (stderr && inFlight > 0) out.stderrInFlight = inFlight;
  if (answer) out.answer = answer;
  return out;
}

/** The first failure's status and values; every failure's message and requirements. */
function verdictOf(failures: Failure[]): RecordedVerdict {
  const head = failures[0];
  if (!head) return { status: 'pass', requirements: [] };
  return {
    status: head.status,
    message: failures.map((f) => f.message).join('\n'),
    ...(head.expected !== undefined ? { expected: head.expected } : {}),
    ...(head.actual !== undefined ? { actual: head.actual } : {}),
    requirements: [...new Set(failures.flatMap((f) => f.requirements))],
    checks: [...new Set(failures.map((f) => f.check))],
  };
}
