/**
 * The properties, each black box through any adapter. `differential` compares
 * with the reference; the others are invariants that need no oracle, so they
 * still name a broken rule when the reference itself is in doubt.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import {
  assemble as referenceAssemble,
  estimateTokens,
  isErrorAnswer,
  isExpired,
  RANKED_HEADER,
  SEGMENT_JOINER,
  tokensFor,
  utcDate,
} from '../../reference/index.js';
import type { AssembleOptions, ContentLengths } from '../../reference/index.js';
import type { Capability } from '../../protocol/assembly.js';
import { describeMismatch } from '../judge.js';
import { blockHeader, markedContext } from '../markers.js';
import { partitionBreaks } from '../partition.js';
import { reasonClass } from '../../vocabulary/reason-classes.js';
import type { DeclaredConstants } from '../../protocol/assembly.js';
import type { GenBlock, GenContext, GenRequest } from './arbitraries.js';
import type { UnknownMember } from './arbitraries.js';
import { anyOnly } from '../../protocol/levels.js';
import { FILLERS, fillerChoice, permutationKeys, request, tieredOnly, unknownMembers, withUnknownMembers } from './arbitraries.js';
import type { Answer, ResultAnswer } from './answers.js';
import { ask, comparableView, hasPinned, profileOf, PropertyFailure, readAnswer, requireResult, viewDifference, viewsAgree } from './answers.js';
import { requirementsBehind } from './blame.js';
import { samePlainData } from './plain-data.js';
import { indexBlocks } from './block-index.js';
import { keptDraws } from './drawn.js';
import { ANY_LEVEL_PROPERTIES } from './any-level.js';
import type { PropertyDef, PropertyEnv } from './property.js';
import type { InvalidInput } from './corruptions.js';
import { invalidRequest } from './corruptions.js';

/** The reference's answer with the implementation's declared capabilities, and its declared constants (SPEC section 17). */
export function referenceAnswer(req: unknown, capabilities: readonly string[], constants?: DeclaredConstants, lengths?: ContentLengths): Answer {
  // Built member by member, not spread: a replay asks this once per recorded request.
  const options: AssembleOptions = { capabilities: capabilities as Capability[] };
  if (constants) options.constants = constants;
  if (lengths) options.lengths = lengths;
  const out = referenceAssemble(req, options);
  if (isErrorAnswer(out)) return { kind: 'error', code: out.error.code, message: out.error.message, value: out };
  return { kind: 'result', value: out };
}

/** Whether the answer to `req` carries the working_context members (tiered only, RANK-7). */
export const withWorkingContext = (req: unknown, gen: GenContext): boolean => profileOf(req) === 'tiered' && gen.capabilities.includes('working_context');

function answer(env: PropertyEnv, req: unknown): Promise<Answer> {
  return ask(env.impl, req, env.gen.capabilities, env.timeoutMs);
}

/** The result, or undefined for a pinned_overflow the request may deserve (checked by `differential`). */
function resultOf(a: Answer, req: GenRequest): ResultAnswer['value'] | undefined {
  return a.kind === 'result' ? a.value : requireResult(a, hasPinned(req))?.value;
}

function fail(message: string, expected?: unknown, actual?: unknown): never {
  throw new PropertyFailure(message, 'fail', expected, actual);
}

/** `items` as a map, the last of a key winning, filled in a loop: `new Map(pairs)` costs several times as much on a replayed request's few blocks. */
function mapOf<T, V>(items: readonly T[], key: (x: T) => string, value: (x: T, i: number) => V): Map<string, V> {
  const m = new Map<string, V>();
  for (let i = 0; i < items.length; i++) m.set(key(items[i]!), value(items[i]!, i));
  return m;
}

/** Each id's block index in the request (the last of an id given twice), from the env's index when it has one. */
const blockIndex = (env: PropertyEnv, req: GenRequest): ReadonlyMap<string, number> => (env.blocks ? env.blocks.of(req) : indexBlocks(req));

/** NUM-2 for the content of block `i` (tiered), its length from the env's table when there is one. */
function contentCost(env: PropertyEnv, req: GenRequest, i: number): number {
  const content = req.blocks[i]!.content;
  const perToken = env.gen.constants?.chars_per_token;
  return env.lengths ? tokensFor(env.lengths.of(i, content), perToken) : estimateTokens(content, perToken);
}

function lineOf(b: GenBlock): string {
  return '- [' + (b.created_at === undefined ? 'undated' : utcDate(b.created_at)) + '] ' + b.content;
}

function expiredIds(req: GenRequest): Set<string> {
  const out = new Set<string>();
  for (const b of req.blocks) if (isExpired(req.now, b.created_at ?? 0, b.ttl_seconds ?? 0)) out.add(b.block_id);
  return out;
}

/** Same code-point length, different text: filler code points repeated and cut. */
export function twinContent(content: string, filler: string): string {
  const n = [...content].length;
  const unit = [...filler];
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(unit[i % unit.length]!);
  return out.join('');
}

/** Non-pinned blocks permuted by the keys; pinned blocks keep their places (PIN-4 renders them in input order). */
export function permuted(req: GenRequest, keys: number[]): GenRequest {
  const free = req.blocks.map((b, i) => ({ b, i })).filter(({ b }) => b.pinned !== true);
  const order = free.map(({ b }, j) => ({ b, k: keys[j % keys.length]! * 64 + j })).sort((x, y) => x.k - y.k);
  const blocks = req.blocks.slice();
  free.forEach(({ i }, j) => {
    blocks[i] = order[j]!.b;
  });
  return { ...req, blocks };
}

/** What selection decides, which must not depend on content text (REN-4). */
function selectionView(a: Answer): unknown {
  if (a.kind === 'error') return { error: a.code };
  return {
    included: a.value.included,
    estimated_tokens: a.value.estimated_tokens,
    omissions: a.value.omissions.map((o) => [o.block_id, reasonClass(o.reason) ?? o.reason]),
  };
}

const range = (prefix: string, from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}-${from + i}`);

/** REQ-3 is not listed: the generators never add a member the specification does not define. */
function differentialRequirements(gen: GenContext): string[] {
  const out = ['REQ-4', ...range('NUM', 1, 5), 'EXP-1', 'EXP-2', ...range('TIER', 1, 9), ...range('REN', 1, 5), ...range('RES', 1, 4), 'CLS-1'];
  if (gen.profiles.includes('ranked')) out.push(...range('RANK', 1, 7));
  if (gen.capabilities.includes('pinned')) out.push(...range('PIN', 1, 5));
  if (gen.capabilities.includes('constraints')) out.push(...range('CON', 1, 7));
  if (gen.capabilities.includes('lifecycle')) out.push(...range('LIF', 1, 4));
  if (gen.capabilities.includes('working_context')) out.push(...range('WC', 1, 5));
  if (gen.capabilities.includes('omission_markers')) out.push(...range('MRK', 1, 4));
  if (gen.constants) out.push('DECL-2', 'DECL-3');
  return out;
}

const always = (): boolean => true;
/** The properties of the exact profiles: a manifest of the any level alone is judged by the any level's instead (SPEC LVL-3). */
const exactProfiles = (gen: GenContext): boolean => !anyOnly(gen);
const ranked = (gen: GenContext): boolean => gen.profiles.includes('ranked');

/** A property of one generated request, for every manifest: the request is also the counterexample. */
function onOneRequest(def: Pick<PropertyDef<GenRequest>, 'name' | 'description' | 'requirements' | 'check'>, applies = exactProfiles): PropertyDef<GenRequest> {
  return { ...def, applies, arbitrary: request, requests: (r) => [r] };
}

/** A property of the answers to one generated request, sent `asks` times: check() asks, then verify() reads them. */
function onAnswers(
  asks: number,
  def: Pick<PropertyDef<GenRequest>, 'name' | 'description' | 'requirements'> & { verify(env: PropertyEnv, req: GenRequest, answers: readonly Answer[]): void },
  applies = exactProfiles,
): PropertyDef<GenRequest> {
  const check = async (env: PropertyEnv, req: GenRequest): Promise<void> => {
    const answers: Answer[] = [];
    for (let i = 0; i < asks; i++) answers.push(await answer(env, req));
    def.verify(env, req, answers);
  };
  return { ...onOneRequest({ ...def, check }, applies), verify: def.verify };
}

const differential = onAnswers(1, {
  name: 'differential',
  description:
    'On random requests the answer equals the reference answer: core members exactly, omissions by reason class in order, working_context members, errors by code.',
  requirements: differentialRequirements,
  verify(env, req, answers) {
    const got = answers[0]!;
    const known = env.reference?.request === req ? env.reference.answer : undefined;
    const reference = known ?? referenceAnswer(req, env.gen.capabilities, env.gen.constants, env.lengths);
    // The same answer has the same view: only answers that differ are compared member by member.
    if (reference.kind === 'error' ? got.kind === 'error' && got.code === reference.code : got.kind === 'result' && samePlainData(reference.value, got.value))
      return;
    const wc = withWorkingContext(req, env.gen);
    const expected = comparableView(reference, wc);
    const actual = comparableView(got, wc);
    if (viewsAgree(expected, actual)) return;
    const d = viewDifference(expected, actual);
    // An error on one side only: the answers as a whole, not member by member.
    const lines = d.members.includes('error')
      ? [describeMismatch({ member: 'answer', expected, actual })]
      : d.members.map((member) => describeMismatch({ member, expected: d.expected[member], actual: d.actual[member] }));
    throw new PropertyFailure(
      `differs from the reference in ${d.members.join(', ')}:\n${lines.join('\n')}`,
      'fail',
      d.expected,
      d.actual,
      requirementsBehind(d.members, req, expected, actual, env.gen.capabilities),
    );
  },
});

const partition = onAnswers(1, {
  name: 'partition',
  description: 'Every block of the request appears exactly once, in included or in omissions.',
  requirements: () => ['RES-2'],
  verify(env, req, answers) {
    const r = resultOf(answers[0]!, req);
    if (!r) return;
    const want = req.blocks.map((b) => b.block_id);
    const breaks = partitionBreaks(want, r, blockIndex(env, req));
    if (breaks) fail('blocks are not partitioned between included and omissions (RES-2)', { every_block_once: want }, breaks);
  },
});

const budget = onAnswers(1, {
  name: 'budget',
  description: 'estimated_tokens is at most the budget and equals the summed cost of the included blocks.',
  requirements: (gen) => ['TIER-9', 'NUM-2', 'RES-3', ...(ranked(gen) ? ['RANK-4', 'RANK-5'] : []), ...(gen.constants ? ['DECL-2'] : [])],
  verify(env, req, answers) {
    const r = resultOf(answers[0]!, req);
    if (!r) return;
    const at = blockIndex(env, req);
    const included = r.included.map((id) => at.get(id)).filter((i): i is number => i !== undefined);
    const isRanked = profileOf(req) === 'ranked';
    let sum: number;
    if (isRanked) {
      sum = included.length === 0 ? 0 : estimateTokens(RANKED_HEADER) + included.reduce((s, i) => s + estimateTokens(lineOf(req.blocks[i]!)), 0);
    } else sum = included.reduce((s, i) => s + contentCost(env, req, i), 0);
    if (r.total_budget !== req.budget) fail('total_budget is not the request budget (RES-3)', { total_budget: req.budget }, { total_budget: r.total_budget });
    if (r.estimated_tokens > req.budget)
      fail(
        `estimated_tokens ${r.estimated_tokens} exceeds the budget ${req.budget} (${isRanked ? 'RANK-4' : 'TIER-9'})`,
        { estimated_tokens: `<= ${req.budget}` },
        { estimated_tokens: r.estimated_tokens },
      );
    if (r.estimated_tokens !== sum)
      fail(
        `estimated_tokens ${r.estimated_tokens} is not the summed cost ${sum} of the included blocks (${isRanked ? 'RANK-5' : 'TIER-9'})`,
        { estimated_tokens: sum },
        { estimated_tokens: r.estimated_tokens },
      );
  },
});

const wholeBlocks = onAnswers(1, {
  name: 'whole-blocks',
  description:
    'Every included block appears whole in context, rendered exactly, and context holds nothing else (with omission_markers: but the markers of the blocks dropped for room, in render order).',
  requirements: (gen) => [
    'TIER-5',
    'REN-2',
    'REN-3',
    'REN-4',
    ...(ranked(gen) ? ['RANK-3', 'RANK-5'] : []),
    ...(gen.capabilities.includes('omission_markers') ? ['MRK-1', 'MRK-2', 'MRK-3'] : []),
  ],
  verify(env, req, answers) {
    const r = resultOf(answers[0]!, req);
    if (!r) return;
    const at = blockIndex(env, req);
    const blockOf = (id: string): GenBlock | undefined => {
      const i = at.get(id);
      return i === undefined ? undefined : req.blocks[i];
    };
    const bs: GenBlock[] = [];
    for (const id of r.included) {
      const b = blockOf(id);
      if (b === undefined) return; // partition's business
      bs.push(b);
    }
    const isRanked = profileOf(req) === 'ranked';
    const markers = !isRanked && env.gen.capabilities.includes('omission_markers');
    let want: string | undefined;
    if (markers) want = markedContext(req, r.included, r.omissions, blockOf)?.withMarkers;
    else if (!isRanked) want = bs.map((b) => blockHeader(b.source, b.block_id) + b.content).join(SEGMENT_JOINER);
    else want = bs.length === 0 ? '' : RANKED_HEADER + '\n' + bs.map(lineOf).join('\n');
    // A context that is exactly its blocks rendered holds each of them whole: only another one is searched for cut blocks.
    if (r.context === want) return;
    // Included order is render order: each content is looked for after the one before, and anywhere only when not there,
    // so a context of 100,000 blocks is read about once instead of once per block.
    let from = 0;
    const cut = bs.filter((b) => {
      const i = r.context.indexOf(b.content, from);
      if (i >= 0) {
        from = i + b.content.length;
        return false;
      }
      return !r.context.includes(b.content);
    });
    if (cut.length > 0)
      fail(
        `included content does not appear whole in context: ${cut.map((b) => b.block_id).join(', ')} (${isRanked ? 'RANK-3' : 'TIER-5'})`,
        { contents: cut.map((b) => b.content) },
        { context: r.context },
      );
    // No context to compare with: an omission names a block the request does not have, which is partition's business.
    if (want === undefined) return;
    const why = markers
      ? 'the included blocks with a marker for each budget or max_segments omission, in render order (REN-2, MRK-1..3)'
      : `the included blocks rendered in included order (${isRanked ? 'RANK-3, RANK-5' : 'REN-2, REN-3'})`;
    fail(`context is not exactly ${why}`, { context: want }, { context: r.context });
  },
});

const expiredNeverIncluded = onAnswers(1, {
  name: 'expired-never-included',
  description: 'No expired block is included; each is omitted with the reason class expired.',
  requirements: (gen) => ['EXP-1', 'EXP-2', ...(gen.capabilities.includes('pinned') ? ['PIN-5'] : []), ...(ranked(gen) ? ['RANK-6'] : [])],
  verify(_env, req, answers) {
    const r = resultOf(answers[0]!, req);
    if (!r) return;
    const expired = expiredIds(req);
    const included = r.included.filter((id) => expired.has(id));
    if (included.length > 0) fail(`expired blocks included: ${included.join(', ')} (EXP-2)`, { expired: [...expired] }, { included: r.included });
    if (expired.size === 0) return;
    const reasons = mapOf(
      r.omissions,
      (o) => o.block_id,
      (o) => reasonClass(o.reason),
    );
    const wrong = [...expired].filter((id) => reasons.get(id) !== 'expired');
    if (wrong.length > 0) {
      fail(
        `expired blocks not omitted as expired: ${wrong.join(', ')} (EXP-2)`,
        Object.fromEntries(wrong.map((id) => [id, 'expired'])),
        Object.fromEntries(wrong.map((id) => [id, reasons.get(id) ?? 'not omitted'])),
      );
    }
  },
});

interface TwinInput {
  request: GenRequest;
  fillers: number[];
}

const contentBlindness: PropertyDef<TwinInput> = {
  name: 'content-blindness',
  description: 'Two requests that differ only in contents of equal code-point length select the same blocks with the same reasons.',
  requirements: () => ['REN-4', 'NUM-1'],
  applies: exactProfiles,
  // The request is the one the other properties draw at this state: drawn once for all of them (drawn.ts).
  arbitrary: (gen) => fc.record({ request: keptDraws(request, gen), fillers: fillerChoice }),
  requests: ({ request: req, fillers }) => [req, twinOf(req, fillers)],
  async check(env, { request: req, fillers }) {
    const twin = twinOf(req, fillers);
    const a = selectionView(await answer(env, req));
    const b = selectionView(await answer(env, twin));
    if (!isDeepStrictEqual(a, b)) {
      fail('selection changed when only content text changed (same code-point lengths) (REN-4)', { selection: a }, { selection: b, twin_request: twin });
    }
  },
};

function twinOf(req: GenRequest, fillers: number[]): GenRequest {
  return { ...req, blocks: req.blocks.map((b, i) => ({ ...b, content: twinContent(b.content, FILLERS[fillers[i % fillers.length]!]!) })) };
}

interface PermutedInput {
  request: GenRequest;
  keys: number[];
}

const orderIndependence: PropertyDef<PermutedInput> = {
  name: 'order-independence',
  description: 'In tiered, permuting the input blocks changes neither included nor context.',
  requirements: () => ['REN-5'],
  applies: (gen) => gen.profiles.includes('tiered'),
  arbitrary: (gen) => fc.record({ request: tieredOnly(gen), keys: permutationKeys }),
  requests: ({ request: req, keys }) => [req, permuted(req, keys)],
  async check(env, { request: req, keys }) {
    const other = permuted(req, keys);
    const a = await answer(env, req);
    const b = await answer(env, other);
    const view = (x: Answer): unknown =>
      x.kind === 'error'
        ? { error: x.code }
        : {
            included: x.value.included,
            context: x.value.context,
            estimated_tokens: x.value.estimated_tokens,
            omissions: x.value.omissions.map((o) => [o.block_id, reasonClass(o.reason) ?? o.reason]).sort(),
          };
    const va = view(a);
    const vb = view(b);
    if (!isDeepStrictEqual(va, vb)) fail('permuting the input blocks changed the answer (REN-5)', va, { ...(vb as object), permuted_request: other });
  },
};

const determinism = onAnswers(
  2,
  {
    name: 'determinism',
    description: 'The same request sent twice gives byte-identical answers.',
    requirements: () => ['REQ-2'],
    verify(_env, _req, [x, y]) {
      const written = (x: Answer): unknown => (x.kind === 'error' ? { error: { code: x.code, message: x.message } } : x.value);
      const a = written(x!);
      const b = written(y!);
      if (samePlainData(a, b)) return;
      const first = JSON.stringify(a);
      const second = JSON.stringify(b);
      if (first !== second) fail('the same request gave two different answers (REQ-2)', JSON.parse(first), JSON.parse(second));
    },
  },
  always,
);

interface UnknownInput {
  request: GenRequest;
  extras: UnknownMember[];
}

/** Its own property, with its own arbitrary: adding it changed no other property's requests at a given seed. */
const unknownMembersIgnored: PropertyDef<UnknownInput> = {
  name: 'unknown-members',
  description: 'Members the specification does not define, added to the request, a block or the constraints, change nothing in the answer.',
  requirements: () => ['REQ-3'],
  applies: always,
  arbitrary: (gen) => fc.record({ request: keptDraws(request, gen), extras: unknownMembers }),
  requests: ({ request: req, extras }) => [withUnknownMembers(req, extras), req],
  async check(env, { request: req, extras }) {
    const plain = await answer(env, req);
    const extended = withUnknownMembers(req, extras);
    const other = await answer(env, extended);
    // Byte for byte: ignoring a member means answering exactly as without it.
    const bytes = (x: Answer): string => (x.kind === 'error' ? JSON.stringify({ error: x.code }) : JSON.stringify(x.value));
    if (bytes(plain) !== bytes(other)) {
      const added = extras.map((e) => `${e.at === 'block' ? `block ${e.index}` : e.at} ${JSON.stringify(e.name)}: ${JSON.stringify(e.value)}`).join('; ');
      fail(`unknown members changed the answer (REQ-3): ${added}`, JSON.parse(bytes(plain)), {
        ...(JSON.parse(bytes(other)) as object),
        request_with_unknown_members: extended,
      });
    }
  },
};

const invalidRequests: PropertyDef<InvalidInput> = {
  name: 'invalid-requests',
  description: 'A request with one member broken is answered with the error invalid_request, never a result or a crash.',
  requirements: (gen) => ['REQ-1', ...range('VAL', 1, 8), ...(ranked(gen) ? ['VAL-9'] : []), 'ERR-1', 'ERR-2'],
  // Validation is its own level for a manifest of the any level alone: judged only when declared (LVL-2).
  applies: (gen) => !anyOnly(gen) || gen.validates === true,
  notApplicable: () => 'validation: not declared by the implementation (SPEC LVL-2: "validates": true opts in)',
  arbitrary: invalidRequest,
  requests: (x) => [x.request],
  async check(env, { request: req, rule, what }) {
    const outcome = await env.impl.assemble(req, { timeoutMs: env.timeoutMs });
    if (outcome.kind === 'result') fail(`answered an invalid request (${what}, ${rule}) with a result`, { error: { code: 'invalid_request' } }, outcome.value);
    const a = readAnswer(outcome, req, env.gen.capabilities);
    if (a.kind === 'error' && a.code !== 'invalid_request') {
      fail(
        `answered an invalid request (${what}, ${rule}) with the error ${a.code}`,
        { error: { code: 'invalid_request' } },
        { error: { code: a.code, message: a.message } },
      );
    }
  },
};

/** Whether a run of this manifest lists the property at all: the any level's only for a manifest that declares it (SPEC section 18), so an exact profile's report is as it was. */
export function listedFor(def: Pick<PropertyDef<unknown>, 'name'>, gen: Pick<GenContext, 'profiles'>): boolean {
  return gen.profiles.includes('any') || !ANY_LEVEL_PROPERTIES.some((p) => p.name === def.name);
}

// Inputs differ per property; the runner treats them uniformly.
// biome-ignore lint/suspicious/noExplicitAny: a list of properties over different inputs (PropertyDef is not covariant in it)
export const PROPERTIES: readonly PropertyDef<any>[] = [
  differential,
  partition,
  budget,
  wholeBlocks,
  expiredNeverIncluded,
  contentBlindness,
  orderIndependence,
  determinism,
  invalidRequests,
  unknownMembersIgnored,
  ...ANY_LEVEL_PROPERTIES,
];
