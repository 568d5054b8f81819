/**
 * "Not this design": what the failing answers break of the design-agnostic
 * principles (SPEC section 18), read with no model of the implementation. When
 * no catalogue defect reproduces the answers, the broken principle is the
 * likely cause that is true whatever the design; and failures that break no
 * principle at all are differences of design (ranking, tiers, render,
 * estimator), not defects a vendor of another design should chase.
 */
import { validateRequest } from '../reference/index.js';
import type { Manifest } from '../protocol/types.js';
import { principleVerdict } from '../judging/principles/verdict.js';
import type { Finding } from '../judging/principles/finding.js';
import { manifestDesign, prepareDesign } from '../judging/principles/design.js';
import type { Design } from '../judging/principles/design.js';
import type { Observation } from './diagnose.js';
import { splitCause } from './splits.js';

/** A principle the failing answers break, and which of them. */
export interface BrokenPrinciple {
  requirement: string;
  summary: string;
  explains: number;
  failing: number;
  explained: string[];
}

export interface PrincipleReading {
  broken: BrokenPrinciple[];
  /** Failing results whose answer breaks no principle but the render's (ANY-10, ANY-11): a difference of design, or a defect the principles cannot see. */
  designOnly: string[];
  /** Failing results read: a result or an error answer to a valid request of profile tiered. */
  read: number;
}

const SUMMARIES: Readonly<Record<string, string>> = {
  'ANY-1': 'blocks are cut to fit, or parts of dropped blocks appear',
  'ANY-2': 'the budget is overrun',
  'ANY-3': 'blocks are dropped without being named',
  'ANY-3|twice': 'blocks are named more than once, or named though the request does not hold them',
  'ANY-4': 'omission reasons name no reason class',
  'ANY-4|boundary':
    'blocks at the instant now == created_at + ttl_seconds are omitted as expired, where EXP-1 keeps them live: ' +
    'the design’s expiry boundary is inclusive and it does not say so (declare "expiry": "inclusive", DES-11, if that is the design)',
  'ANY-4|expired': 'live blocks are omitted as expired: the reason is false of the block',
  'ANY-4|budget': 'expired blocks are said to be dropped for the budget: the design does not read their expiry, or misnames it',
  'ANY-4|other':
    'omission reasons are false of their blocks (a filter the request did not ask for, a status the block does not have, a floor a kept block is under)',
  'ANY-5': 'expired blocks are included',
  'ANY-6': 'pinned blocks are dropped',
  'ANY-7': 'selection reads the content: a twin request, its letters and digits rotated at the same cost, selects other blocks or gives other reasons',
  'ANY-10': 'contents appear outside their own header',
  'ANY-11': 'text of the implementation’s own is written into the context',
  'ANY-11|missing':
    'the declared render of an empty content is left out of the context (no header for it): where that is the design, it declares render.empty_content "nothing" or "header"',
  'ANY-13': 'valid requests are refused',
  'ANY-14': 'blocks that fit are dropped for the budget',
  'ANY-14|other-end':
    'the blocks are taken from the other end of the order than the declared fill takes them (the oldest kept where the newest are declared, or the reverse)',
  'ANY-14|ties': 'blocks of equal rank are broken by another tie rule than the design declares (fill.ties)',
  'ANY-14|levels-split': 'a level of equal rank is taken block by block where the design declares each level kept or dropped whole (fill.levels)',
  'ANY-14|levels-whole': 'levels of equal rank are kept or dropped whole, which the design does not declare (fill.levels "whole")',
  'ANY-14|strict': 'a block that exactly fills what is left is dropped: the fit test is strict (cost < budget), where a selection that costs the budget fits',
  'ANY-15': 'the context is not in the declared order',
  'ANY-16': 'blocks that belong together are split (a tool call kept without its result, or the reverse)',
  'LIF-1': 'superseded blocks are included though the request does not ask for them',
  'LIF-2': 'disputed blocks are included though the request leaves them out',
};

/** What a request holds that can make an assembler loop: the cases every hang report names. */
const HANG_FEATURES: readonly { words: string; holds: (r: HangRequest, d: Design, pinnedOwed: boolean) => boolean }[] = [
  { words: 'a budget of 0', holds: (r) => r.budget === 0 },
  { words: 'no blocks', holds: (r) => r.blocks.length === 0 },
  {
    words: 'pinned blocks that alone fill the budget',
    holds: (r, d, owed) => owed && r.blocks.some((b) => b.pinned === true) && d.costOf(r.blocks.filter((b) => b.pinned === true)) >= r.budget,
  },
  { words: 'a block that alone costs more than the budget', holds: (r, d) => r.blocks.some((b) => d.costOf([b]) > r.budget) },
  {
    words: 'every block expired',
    holds: (r, d) => r.blocks.length > 0 && r.blocks.every((b) => d.expired(r.now, b)),
  },
];

type HangRequest = {
  now: number;
  budget: number;
  blocks: { block_id: string; source: string; content: string; pinned?: boolean; created_at?: number; ttl_seconds?: number }[];
};

/**
 * What the requests that hang hold and the answered ones mostly do not: "a budget of 0 (5 of
 * 5 that hang, 1 of 40 answered)"; undefined when nothing sets them apart.
 */
function whatHangs(hangs: readonly Observation[], answered: readonly Observation[], design: Design, capabilities: readonly string[]): string | undefined {
  const owed = capabilities.includes('pinned');
  // Only a valid request holds a feature: an invalid one (the invalid-requests property's block without a content, a null) is no hang's.
  const readable = (r: unknown): r is HangRequest => validateRequest(r).length === 0;
  const count = (os: readonly Observation[], f: (typeof HANG_FEATURES)[number]): number =>
    os.filter((o) => readable(o.request) && f.holds(o.request, design, owed)).length;
  const telling = HANG_FEATURES.map((f) => ({ f, hung: count(hangs, f), ok: count(answered, f) }))
    .filter((x) => x.hung * 5 >= hangs.length * 4 && (answered.length === 0 || x.ok * 5 < answered.length))
    .sort((a, b) => b.hung - a.hung);
  if (telling.length === 0) return undefined;
  return `the requests that hang hold ${telling.map((x) => `${x.f.words} (${x.hung} of ${hangs.length} that hang, ${x.ok} of ${answered.length} answered)`).join(' and ')}`;
}

/** Ways of counting a selection that real assemblers get wrong, each as the count it gives (integers, as estimated_tokens is). */
const MISCOUNTS: readonly { words: string; count: (blocks: readonly MiscountBlock[], design: Design) => number }[] = [
  { words: 'the number of blocks, not their tokens', count: (bs) => bs.length },
  { words: 'one token short a block', count: (bs, d) => d.costOf(bs) - bs.length },
  { words: 'one token short', count: (bs, d) => d.costOf(bs) - 1 },
  { words: 'the pinned blocks left out of the count', count: (bs, d) => d.costOf(bs.filter((b) => b.pinned !== true)) },
  { words: 'a quarter short (three quarters of the count)', count: (bs, d) => Math.floor((d.costOf(bs) * 3) / 4) },
  { words: 'half the count', count: (bs, d) => Math.floor(d.costOf(bs) / 2) },
  { words: 'characters, not tokens', count: (bs) => bs.reduce((n, b) => n + [...b.content].length, 0) },
  { words: 'code points over 5, not 4', count: (bs) => bs.reduce((n, b) => n + Math.max(1, Math.floor([...b.content].length / 5)), 0) },
  { words: 'words, not tokens', count: (bs) => bs.reduce((n, b) => n + (b.content.match(/\S+/g)?.length ?? 0), 0) },
  { words: 'the empty content counted as 0, not at least 1', count: (bs) => bs.reduce((n, b) => n + Math.floor([...b.content].length / 4), 0) },
];

type MiscountBlock = { block_id: string; source: string; content: string; pinned?: boolean };

/**
 * The counting difference that reproduces the answers' own estimated_tokens on the overruns:
 * "its estimated_tokens is the number of blocks, not their tokens, in 7 of 8"; undefined when
 * none reproduces most of them.
 */
function miscount(overruns: readonly Observation[], design: Design): string | undefined {
  const read = overruns.flatMap((o) => {
    if (o.outcome.kind !== 'result') return [];
    const answer = o.outcome.value as { included?: unknown; estimated_tokens?: unknown };
    const blocks = (o.request as { blocks?: MiscountBlock[] }).blocks ?? [];
    if (!Array.isArray(answer.included) || typeof answer.estimated_tokens !== 'number') return [];
    const byId = new Map(blocks.map((b) => [b.block_id, b]));
    const included = answer.included.map((id) => byId.get(String(id))).filter((b): b is MiscountBlock => b !== undefined);
    // Only an answer whose own count differs from the declared one says how it counts.
    if (Math.round(design.costOf(included)) === answer.estimated_tokens) return [];
    return [{ included, said: answer.estimated_tokens }];
  });
  if (read.length === 0) return undefined;
  const best = MISCOUNTS.map((m) => ({ m, n: read.filter((r) => m.count(r.included, design) === r.said).length })).sort((a, b) => b.n - a.n)[0]!;
  if (best.n * 2 <= read.length) return undefined;
  return `its estimated_tokens is ${best.m.words}, in ${best.n} of the ${read.length} overruns whose own count is not the declared estimator's`;
}

/** A finding as the likely cause counts it: by principle, and ANY-3 by what was wrong (a drop nobody named, or a block named twice or not in the request). */
function findingKey(f: Finding, common: ReadonlyMap<string, number> = new Map()): string {
  const actual = f.actual as { more_than_once?: unknown } | undefined;
  if (f.id === 'ANY-11' && (f.actual as { missing_render_of?: unknown } | undefined)?.missing_render_of !== undefined) return 'ANY-11|missing';
  // A finding read several ways is counted under the reading most failures of the run share (one answer may not tell them apart).
  if (f.kinds !== undefined && f.kinds.length > 0) {
    const kind = [...f.kinds].sort((a, b) => (common.get(`${f.id}|${b}`) ?? 0) - (common.get(`${f.id}|${a}`) ?? 0))[0]!;
    return `${f.id}|${kind}`;
  }
  return f.id === 'ANY-3' && actual?.more_than_once !== undefined ? 'ANY-3|twice' : f.id;
}

/** What a declared render would change: under another design's render these are its design, not a defect. */
const RENDER = ['ANY-10', 'ANY-11'];

/** The design the exact profiles fix, as the principles read it: NUM-2 with a declared divisor, REN-2, REN-3. */
function designOfManifest(manifest: Observation['manifest'] & Partial<Pick<Manifest, 'design'>>): Design {
  if (manifest.design) return manifestDesign(manifest);
  const perToken = manifest.constants?.chars_per_token;
  const profiles = manifest.profiles === undefined ? {} : { profiles: [...manifest.profiles] };
  return manifestDesign({ design: perToken === undefined ? undefined : { estimator: { unit: 'code_points', per_token: perToken } }, ...profiles });
}

/**
 * The design the observations' manifest declares, its tokenizer loaded; undefined for omission
 * markers, which are written in tiered's render (no declared design reads them).
 */
export async function principlesDesign(observations: readonly Observation[]): Promise<Design | undefined> {
  const first = observations[0];
  if (!first) return undefined;
  const manifest = first.manifest as Observation['manifest'] & Partial<Pick<Manifest, 'design'>>;
  if (manifest.capabilities.includes('omission_markers')) return undefined;
  return manifest.design ? prepareDesign(manifest) : designOfManifest(manifest);
}

/** Whether the principles read this observation: a valid request, and not one of ranked's (its own exact profile). */
const principled = (o: Observation): boolean => validateRequest(o.request).length === 0 && (o.request as { profile?: unknown }).profile !== 'ranked';

/** The principles the failing observations break under `design` (principlesDesign). */
export function readPrinciples(observations: readonly Observation[], design: Design, among?: ReadonlySet<string>): PrincipleReading | undefined {
  const failing = observations.filter((o) => !o.passed && (among === undefined || among.has(o.id)));
  const first = failing[0];
  if (!first) return undefined;
  const manifest = first.manifest as Observation['manifest'] & Partial<Pick<Manifest, 'design'>>;
  const byId = new Map<string, string[]>();
  const designOnly: string[] = [];
  let read = 0;
  const hangs: Observation[] = [];
  const answered: Observation[] = [];
  const judged: { o: Observation; v: ReturnType<typeof principleVerdict> }[] = [];
  for (const o of failing) {
    if (!principled(o)) continue;
    // A valid request that got no answer in time: which requests hang is the whole diagnosis (ANY-13).
    if (o.outcome.kind === 'timeout') {
      hangs.push(o);
      continue;
    }
    // The level's own verdict (a refused valid request is ANY-13 there); an answer it calls error or crash is not read.
    const v = principleVerdict(o.request, o.outcome, design, manifest.capabilities);
    if (v.status === 'pass' || v.status === 'fail') judged.push({ o, v });
  }
  // How many failing answers each reading of a finding fits: an answer read several ways is counted under the most common.
  const common = new Map<string, number>();
  for (const { v } of judged)
    for (const key of new Set((v.findings ?? []).flatMap((f) => (f.kinds ?? []).map((k) => `${f.id}|${k}`)))) common.set(key, (common.get(key) ?? 0) + 1);
  for (const { o, v } of judged) {
    read++;
    answered.push(o);
    // A property of two requests whose answers each break nothing broke their relation: the property names it.
    const keys = v.status === 'pass' ? [...(o.relation ?? [])] : [...new Set((v.findings ?? []).map((f) => findingKey(f, common)))];
    if (keys.every((id) => RENDER.includes(id.split('|')[0]!))) designOnly.push(o.id);
    for (const key of keys) byId.set(key, [...(byId.get(key) ?? []), o.id]);
  }
  const broken: BrokenPrinciple[] = [...byId].map(([key, explained]) => ({
    requirement: key.split('|')[0]!,
    summary: SUMMARIES[key] ?? key,
    explains: explained.length,
    failing: failing.length,
    explained,
  }));
  const overrun = broken.find((b) => b.requirement === 'ANY-2');
  if (overrun) {
    const how = miscount(
      failing.filter((o) => overrun.explained.includes(o.id)),
      design,
    );
    if (how) overrun.summary = `${overrun.summary}: ${how}`;
  }
  const split = broken.find((b) => b.requirement === 'ANY-16');
  if (split) {
    const why = splitCause([...answered, ...observations.filter((o) => o.passed && principled(o))], split.explained, design, manifest.capabilities);
    if (why) Object.assign(split, { summary: why.summary, explains: why.explained.length, explained: why.explained });
  }
  if (hangs.length > 0) {
    const replied = observations.filter((o) => o.outcome.kind === 'result' || o.outcome.kind === 'error');
    const hold = whatHangs(hangs, replied, design, manifest.capabilities);
    broken.push({
      requirement: 'ANY-13',
      summary: `valid requests get no answer in time (they hang)${hold ? `: ${hold}` : ''}`,
      explains: hangs.length,
      failing: failing.length,
      explained: hangs.map((o) => o.id),
    });
    read += hangs.length;
  }
  // Most failures explained first; equal counts in requirement order.
  broken.sort((a, b) => b.explains - a.explains || (a.requirement < b.requirement ? -1 : 1));
  return { broken, designOnly, read };
}

/** The terminal's lines for a reading: each broken principle with how many failures it explains, and the design hint. */
export function principleLines(r: PrincipleReading, failing: number, atAnyLevel: boolean, unexplainedOnly: boolean): string[] {
  const lines = r.broken.map((b) => `  ${b.summary} (${b.requirement}): explains ${b.explains} of ${failing} failure${failing === 1 ? '' : 's'}`);
  if (lines.length > 0)
    lines.unshift(`${unexplainedOnly ? 'of the failures no known defect explains, ' : ''}broken principles, whatever the design (SPEC section 18):`);
  // Mostly answers every design could give: say so, and where a design of one's own is judged.
  if (!atAnyLevel && r.designOnly.length * 2 > failing) {
    lines.push(
      `  ${r.designOnly.length} of ${failing} failures break no design-agnostic principle but, at most, REN-2's ` +
        `render: differences of design (ranking, tiers, render, estimator) or of tiered's exact rules; an assembler of its own design declares "profiles": ["any"] and its design (docs/any-design.md)`,
    );
  }
  return lines;
}
