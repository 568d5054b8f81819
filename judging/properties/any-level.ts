/**
 * The any level's properties (SPEC section 18): each principle over drawn
 * requests that reach real thresholds (any-requests.ts), judged by the one
 * judge of the principles. Each property fails only for its own principles,
 * so shrinking keeps its reason: an overrun shrinks to a smaller overrun,
 * never to another principle's failure.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { anyReasonClass } from '../../vocabulary/reason-classes.js';
import { principlesNotJudged } from '../../protocol/render-template.js';
import { manifestDesign } from '../principles/design.js';
import type { Design } from '../principles/design.js';
import { failed, principleVerdict } from '../principles/verdict.js';
import { PropertyFailure } from './answers.js';
import { anyRequest } from './any-requests.js';
import type { GenContext, GenRequest } from './arbitraries.js';
import type { PropertyDef, PropertyEnv } from './property.js';
import type { Outcome } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';

/** Omission markers are written into tiered's render (MRK-1): a declared render has no place for them, so the level's properties leave such a manifest to the exact ones. */
const atAnyLevel = (gen: GenContext): boolean => gen.profiles.includes('any') && !gen.capabilities.includes('omission_markers');
const whyNot = (gen: GenContext): string =>
  !gen.profiles.includes('any')
    ? `the any level is not declared (profiles [${gen.profiles.join(', ')}])`
    : "capability omission_markers: its markers are written in tiered's render, not a declared one";

/** The design the env carries (prepared with its tokenizer), or the declaration's. */
const designIn = (env: PropertyEnv): Design => env.design ?? manifestDesign({ design: env.gen.design, profiles: [...env.gen.profiles] });

/** The principles in the order a shrink keeps to the first of (judging/properties/index.ts): a cut before a header, a header last of all. */
const SEVERITY = ['ANY-1', 'ANY-6', 'ANY-16', 'ANY-5', 'ANY-3', 'ANY-2', 'ANY-14', 'ANY-4', 'ANY-13', 'ANY-15', 'ANY-10', 'ANY-11'];
const bySeverity = (ids: readonly string[]): string[] => [...new Set(ids)].sort((a, b) => (SEVERITY.indexOf(a) + 1 || 99) - (SEVERITY.indexOf(b) + 1 || 99));

function judged(env: PropertyEnv, req: GenRequest, outcome: Outcome, ids: readonly string[]): void {
  const v = principleVerdict(req, outcome, designIn(env), env.gen.capabilities);
  if (v.status === 'pass' || v.status === 'skip') return;
  if (v.status !== 'fail') throw new PropertyFailure(v.message ?? v.status, v.status, undefined, v.actual);
  const mine = (v.findings ?? []).filter((f) => ids.includes(f.id));
  if (mine.length === 0) return;
  const own = failed(mine);
  throw new PropertyFailure(own.message ?? 'fail', 'fail', own.expected, own.actual, bySeverity(mine.map((f) => f.id)));
}

/** `ids` less the principles the declared design leaves unjudged (ANY-10 for a render that names no block). */
const held = (gen: Pick<GenContext, 'design' | 'profiles'>, ids: readonly string[]): string[] => {
  const unjudged = new Set(
    principlesNotJudged(gen.design)
      .filter((n) => n.partly !== true)
      .map((n) => n.principle),
  );
  if (gen.design?.context_order === undefined) unjudged.add('ANY-15');
  if (gen.design?.groups === undefined) unjudged.add('ANY-16');
  // A fill of the design's own (declared, or an exact profile's tiers) leaves drops for the budget to it (DES-7).
  if (gen.design?.fill === 'own' || gen.profiles.some((p) => p === 'tiered' || p === 'ranked')) unjudged.add('ANY-14');
  return ids.filter((id) => !unjudged.has(id));
};

function principle(
  name: string,
  description: string,
  ids: readonly string[],
  applies: (gen: GenContext) => boolean = atAnyLevel,
  notApplicable?: (gen: GenContext) => string,
): PropertyDef<GenRequest> {
  return {
    name,
    description,
    requirements: (gen) => held(gen, ids),
    applies,
    notApplicable,
    arbitrary: anyRequest,
    requests: (r) => [r],
    shrinksWithinFirst: true,
    async check(env, req) {
      judged(env, req, await env.impl.assemble(req, { timeoutMs: env.timeoutMs }), ids);
    },
  };
}

const anyWholeBlocks = principle(
  'any-whole-blocks',
  'Every included content appears whole under its own header, in the declared order, no part of a dropped block appears, and nothing else is written (any design).',
  ['ANY-1', 'ANY-10', 'ANY-11', 'ANY-15'],
);
const anyBudget = principle(
  'any-budget',
  'The included blocks cost at most the budget under the declared estimator, and so does estimated_tokens; a block that fits is not dropped for it (any design).',
  ['ANY-2', 'ANY-14'],
);
const anyAccounting = principle(
  'any-accounting',
  'Every block is included or omitted with a reason of a known class, exactly once, and blocks that belong together are kept or dropped together (any design).',
  ['ANY-3', 'ANY-4', 'ANY-16'],
);
const anyExpired = principle('any-expired', 'An expired block is never included (any design).', ['ANY-5']);
const anyPinned = principle(
  'any-pinned',
  'A live pinned block is included, or the answer is pinned_overflow (any design).',
  ['ANY-6', 'ANY-13'],
  (gen) => atAnyLevel(gen) && gen.capabilities.includes('pinned'),
  (gen) => (atAnyLevel(gen) ? 'capability pinned not declared by the implementation' : whyNot(gen)),
);

/**
 * Each ASCII letter rotated by `shift` among the 26 of its case and each digit among the 10
 * digits; punctuation, white space and every other character kept. The twin costs the same
 * under every unit estimator (DES-1: the same code points, UTF-16 units, UTF-8 bytes and word
 * breaks), and keeps every relation a design may read without reading meaning: one word is
 * always one twin word (so equal words stay equal across blocks), case folds alike, letters
 * stay letters and punctuation stays itself (so word and sentence boundaries are where they
 * were), and contents equal or near-duplicate by any word-set measure stay so. What changes is
 * which words they are: a design that keeps or drops a block for a word it reads fails.
 */
export function sameWidthTwin(content: string, shift: number): string {
  let out = '';
  for (let i = 0; i < content.length; i++) {
    const cp = content.charCodeAt(i);
    if (cp >= 0x61 && cp <= 0x7a) out += String.fromCharCode(0x61 + ((cp - 0x61 + shift) % 26));
    else if (cp >= 0x41 && cp <= 0x5a) out += String.fromCharCode(0x41 + ((cp - 0x41 + shift) % 26));
    else if (cp >= 0x30 && cp <= 0x39) out += String.fromCharCode(0x30 + ((cp - 0x30 + shift) % 10));
    else out += content[i];
  }
  return out;
}

const selection = (o: Outcome): unknown => {
  if (o.kind !== 'result') return o.kind === 'error' ? { error: o.code } : { outcome: o.kind };
  const r = o.value as Result;
  return { included: r.included, omissions: r.omissions.map((x) => [x.block_id, anyReasonClass(x.reason) ?? x.reason]) };
};

interface TwinInput {
  request: GenRequest;
  shift: number;
}

const anyContentBlindness: PropertyDef<TwinInput> = {
  name: 'any-content-blindness',
  description:
    'Two requests whose contents differ but cost the same under the declared estimator select the same blocks with the same reason classes (any design).',
  requirements: () => ['ANY-7'],
  applies: (gen) => atAnyLevel(gen) && !(gen.design?.estimator && 'tokenizer' in gen.design.estimator),
  notApplicable: (gen) =>
    atAnyLevel(gen) ? 'a tokenizer estimator: no twins of equal cost can be made (ANY-7)' : `not applicable to profiles [${gen.profiles.join(', ')}]`,
  arbitrary: (gen) => fc.record({ request: anyRequest(gen), shift: fc.integer({ min: 1, max: 5 }) }),
  requests: ({ request, shift }) => [request, twin(request, shift)],
  async check(env, { request, shift }) {
    const other = twin(request, shift);
    const a = selection(await env.impl.assemble(request, { timeoutMs: env.timeoutMs }));
    const b = selection(await env.impl.assemble(other, { timeoutMs: env.timeoutMs }));
    if (!isDeepStrictEqual(a, b)) {
      throw new PropertyFailure(
        'the selection changed when only content text changed, at the same cost (ANY-7)',
        'fail',
        { selection: a },
        { selection: b, twin_request: other },
        ['ANY-7'],
      );
    }
  },
};

function twin(req: GenRequest, shift: number): GenRequest {
  return { ...req, blocks: req.blocks.map((b) => ({ ...b, content: sameWidthTwin(b.content, shift) })) };
}

// biome-ignore lint/suspicious/noExplicitAny: a list of properties over different inputs (PropertyDef is not covariant in it)
export const ANY_LEVEL_PROPERTIES: readonly PropertyDef<any>[] = [anyWholeBlocks, anyBudget, anyAccounting, anyExpired, anyPinned, anyContentBlindness];

/** The property of the level that holds a principle: what a replayed record's failure is keyed by for a baseline. */
export function propertyOfPrinciple(id: string): string | undefined {
  return ANY_LEVEL_PROPERTIES.find((p) => p.requirements({ profiles: ['any'], capabilities: [] }).includes(id))?.name;
}
