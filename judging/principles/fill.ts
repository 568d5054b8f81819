/**
 * A block that fits is not dropped for the budget (SPEC ANY-14), and the
 * declared context order holds (ANY-15). Under a declared fill (DES-7) the
 * selection is a function of the request the kit computes: the candidates in
 * the declared order, each taken while the selection with it fits. Without
 * one, only what every design owes: when all candidates fit together, none is
 * omitted for the budget.
 */
import type { DeclaredContextOrder, DeclaredFill } from '../../protocol/types.js';
import type { Result } from '../../protocol/assembly.js';
import { reasonClass } from '../../vocabulary/reason-classes.js';
import type { Finding, PrincipleBlock, PrincipleRequest } from './finding.js';
import { quote, quotedList } from './finding.js';
import { groupOf } from './groups.js';
import { type Design, withinBudget } from './design.js';
import { compareCodePoints } from '../../reference/index.js';

type Ties = NonNullable<DeclaredFill['ties']>;

/** The tie rule a fill takes when it declares none (DES-7): the request's order, but the later of two equal times first when newest first. */
export const defaultTies = (by: DeclaredFill['order'] | DeclaredContextOrder['by']): Ties => (by === 'newest_first' ? 'later_first' : 'input');

/** The key `by` orders on, smallest first: blocks of equal key are a tie (and, with whole levels, one level). */
function orderKey(by: DeclaredFill['order'] | DeclaredContextOrder['by']): (b: PrincipleBlock) => number {
  if (by === 'priority') return (b) => -(typeof b['priority'] === 'number' ? (b['priority'] as number) : 0);
  if (by === 'newest_first') return (b) => -(b.created_at ?? 0);
  if (by === 'oldest_first' || by === 'chronological') return (b) => b.created_at ?? 0;
  return () => 0;
}

/**
 * Blocks in `order`, ties broken by `ties` (DES-7): the request's order, the later first, block
 * id in code-point order (TIER-3's last key), or the newest first by created_at (then the
 * request's order). Undeclared: the request's order, but the later of two equal times first
 * when newest first, as a history listed oldest first is read from its end.
 */
export function ordered(
  blocks: readonly PrincipleBlock[],
  by: DeclaredFill['order'] | DeclaredContextOrder['by'],
  ties: Ties = defaultTies(by),
): PrincipleBlock[] {
  const at = new Map(blocks.map((b, i) => [b, i]));
  const key = orderKey(by);
  const tie: (a: PrincipleBlock, b: PrincipleBlock) => number =
    ties === 'later_first'
      ? (a, b) => at.get(b)! - at.get(a)!
      : ties === 'block_id'
        ? (a, b) => compareCodePoints(a.block_id, b.block_id) || at.get(a)! - at.get(b)!
        : ties === 'newest_first'
          ? (a, b) => (b.created_at ?? 0) - (a.created_at ?? 0) || at.get(a)! - at.get(b)!
          : (a, b) => at.get(a)! - at.get(b)!;
  return [...blocks].sort((a, b) => key(a) - key(b) || tie(a, b));
}

/** A selection in the order its context lists it, where the design declares one (DES-8): a count over rendered blocks reads their {index}. */
export function inContextOrder(blocks: readonly PrincipleBlock[], request: PrincipleRequest, order: DeclaredContextOrder | undefined): PrincipleBlock[] {
  if (order === undefined) return [...blocks];
  const inRequest = request.blocks.filter((b) => blocks.includes(b));
  const first = order.pinned_first === true ? inRequest.filter((b) => b.pinned === true) : [];
  return [
    ...first,
    ...ordered(
      inRequest.filter((b) => !first.includes(b)),
      order.by,
    ),
  ];
}

const FILL_WORDS: Readonly<Record<DeclaredFill['order'], string>> = {
  priority: 'highest priority first',
  newest_first: 'newest first',
  oldest_first: 'oldest first',
  input: 'in the request’s order',
};

const OTHER_END: Partial<Record<DeclaredFill['order'], DeclaredFill['order']>> = { newest_first: 'oldest_first', oldest_first: 'newest_first' };

const TIE_WORDS: Readonly<Record<Ties, string>> = {
  input: 'in the request’s order',
  later_first: 'the later in the request first',
  block_id: 'by block id',
  newest_first: 'the newest first',
};

/** A declared fill in words: "the declared fill (highest priority first, ties by block id, whole levels, skipping a block that does not fit)". */
function fillWords(fill: DeclaredFill): string {
  const ties = fill.ties !== undefined && fill.order !== 'input' ? `, ties ${TIE_WORDS[fill.ties]}` : '';
  const levels = fill.levels === 'whole' ? ', each level of equal rank whole' : '';
  const misfit = fill.misfit === 'stop' ? 'stopping at the first that does not fit' : 'skipping one that does not fit';
  return `the declared fill (${FILL_WORDS[fill.order]}${ties}${levels}, ${misfit})`;
}

/** A way designs are known to differ from their declared fill, as the likely cause counts it (`kind`) and as a message says it. */
export interface FillReading {
  kind: 'other-end' | 'ties' | 'levels-split' | 'levels-whole' | 'strict';
  words: string;
}

/**
 * The fills the answer keeps instead, where one of the ways designs are known to differ from
 * their declaration reproduces it exactly: the other end of the history, another tie rule,
 * levels taken whole or block by block, or a strict fit (a block that exactly fills what is
 * left dropped). Every one that reproduces it: one answer may not tell them apart.
 */
function otherReadings(
  rest: readonly PrincipleBlock[],
  pinned: readonly PrincipleBlock[],
  fill: DeclaredFill,
  request: PrincipleRequest,
  design: Design,
  included: ReadonlySet<string>,
): FillReading[] {
  const same = (blocks: readonly PrincipleBlock[]): boolean => blocks.length === included.size && blocks.every((b) => included.has(b.block_id));
  const under = (f: DeclaredFill, d: Design = design): boolean => same(taken(rest, pinned, f, request.budget, d, d.groups, request));
  const out: FillReading[] = [];
  const other = OTHER_END[fill.order];
  if (other && under({ ...fill, order: other, ties: fill.ties ?? defaultTies(other) }))
    out.push({
      kind: 'other-end',
      words: `the blocks are taken from the other end (${FILL_WORDS[other]}, where the design declares ${FILL_WORDS[fill.order]})`,
    });
  const declaredTies = fill.ties ?? defaultTies(fill.order);
  if (fill.order !== 'input') {
    const ties = (['input', 'later_first', 'block_id', 'newest_first'] as const).find((t) => t !== declaredTies && under({ ...fill, ties: t }));
    if (ties) out.push({ kind: 'ties', words: `ties are broken ${TIE_WORDS[ties]}, where the design declares ${TIE_WORDS[declaredTies]}` });
    if (under({ ...fill, levels: fill.levels === 'whole' ? undefined : 'whole' }))
      out.push(
        fill.levels === 'whole'
          ? { kind: 'levels-split', words: 'a level of equal rank is taken block by block, where the design declares each level kept or dropped whole' }
          : { kind: 'levels-whole', words: 'levels of equal rank are kept or dropped whole, which the design does not declare (fill.levels "whole")' },
      );
  }
  // A strict fit test: the selection must cost less than the budget, so a block that exactly fills what is left is dropped.
  const strict: Design = { ...design, costOf: (bs) => (bs.length === 0 ? 0 : design.costOf(bs) + 1e-6 * Math.max(1, request.budget)) };
  if (under(fill, strict))
    out.push({
      kind: 'strict',
      words: 'a block that exactly fills what is left is dropped (the fit test is strict: cost < budget, where at most the budget fits)',
    });
  return out;
}

/**
 * What the fill considers in `order`: a block, or with `member` the candidates of one group
 * together, where the first of them stands (DES-7 with DES-9).
 */
export function fillUnits(candidates: readonly PrincipleBlock[], fill: Pick<DeclaredFill, 'order' | 'ties' | 'levels'>, member?: string): PrincipleBlock[][] {
  const units: PrincipleBlock[][] = [];
  const byGroup = new Map<string, PrincipleBlock[]>();
  for (const b of ordered(candidates, fill.order, fill.ties)) {
    const g = groupOf(b, member);
    const unit = g === undefined ? undefined : byGroup.get(g);
    if (unit) unit.push(b);
    else {
      units.push([b]);
      if (g !== undefined) byGroup.set(g, units[units.length - 1]!);
    }
  }
  if (fill.levels !== 'whole' || fill.order === 'input') return units;
  // Whole levels: the units whose first blocks are equal under the order are one, taken together or not at all (a priority cutoff).
  const key = orderKey(fill.order);
  const levels: PrincipleBlock[][] = [];
  for (const u of units) {
    const last = levels[levels.length - 1];
    if (last && key(last[0]!) === key(u[0]!)) last.push(...u);
    else levels.push([...u]);
  }
  return levels;
}

/** The blocks a fill takes from `candidates`, pinned ones first; `member` links the blocks it takes as one (undefined: block by block). */
export function taken(
  candidates: readonly PrincipleBlock[],
  pinned: readonly PrincipleBlock[],
  fill: DeclaredFill,
  budget: number,
  design: Design,
  member?: string,
  request?: PrincipleRequest,
): PrincipleBlock[] {
  const out = [...pinned];
  const cost = (blocks: readonly PrincipleBlock[]): number => design.costOf(request ? inContextOrder(blocks, request, design.contextOrder) : blocks);
  for (const unit of fillUnits(candidates, fill, member)) {
    if (withinBudget(cost([...out, ...unit]), budget)) out.push(...unit);
    else if (fill.misfit === 'stop') break;
  }
  return out;
}

/**
 * The live blocks the fill considers and those it takes first. With groups declared, a group
 * with an expired block is out (its expired block takes it out) and one with a live pinned
 * block goes in with the pinned blocks (ANY-16).
 */
export function fillCandidates(
  request: PrincipleRequest,
  answer: Result,
  capabilities: readonly string[],
  design: Pick<Design, 'expired'>,
  member: string | undefined,
): { live: PrincipleBlock[]; candidates: PrincipleBlock[]; pinned: PrincipleBlock[] } {
  const omitted = new Map(answer.omissions.map((o) => [o.block_id, o.reason]));
  const included = new Set(answer.included);
  const isExpiredBlock = (b: PrincipleBlock): boolean => design.expired(request.now, b);
  const live = request.blocks.filter((b) => !isExpiredBlock(b));
  const pinnedOwed = capabilities.includes('pinned');
  const isPinned = (b: PrincipleBlock): boolean => pinnedOwed && b.pinned === true;
  const gone = new Set(request.blocks.filter(isExpiredBlock).map((b) => groupOf(b, member)));
  const held = new Set(live.filter(isPinned).map((b) => groupOf(b, member)));
  // Dropped for another reason than the budget: the other principles judge that drop, the fill never saw the block.
  const candidates = live.filter(
    (b) =>
      (included.has(b.block_id) || !omitted.has(b.block_id) || reasonClass(omitted.get(b.block_id)) === 'budget') &&
      (isPinned(b) || groupOf(b, member) === undefined || !gone.has(groupOf(b, member))),
  );
  const pinned = candidates.filter((b) => isPinned(b) || (groupOf(b, member) !== undefined && held.has(groupOf(b, member))));
  return { live, candidates, pinned };
}

/** ANY-14 and ANY-15 for one answer; `cut` blocks (ANY-1's) and a `split` group (ANY-16's) leave the fill unjudged, as a filter the request asks for leaves its blocks out. */
export function fillFindings(
  request: PrincipleRequest,
  answer: Result,
  design: Design,
  capabilities: readonly string[],
  cut: ReadonlySet<string>,
  split: boolean,
  out: Finding[],
): void {
  const omitted = new Map(answer.omissions.map((o) => [o.block_id, o.reason]));
  const included = new Set(answer.included);
  const { live, candidates, pinned } = fillCandidates(request, answer, capabilities, design, design.groups);
  const rest = candidates.filter((b) => !pinned.includes(b));
  const forBudget = candidates.filter((b) => !included.has(b.block_id) && omitted.has(b.block_id));
  if (design.contextOrder) orderFinding(request, answer, design.contextOrder, out);
  // A cut is ANY-1's, an expired block kept ANY-5's, pinned blocks over the budget ANY-2's, a split group ANY-16's: none leaves a fill to judge.
  const expiredKept = request.blocks.some((b) => included.has(b.block_id) && !live.includes(b));
  const costOf = (blocks: readonly PrincipleBlock[]): number => design.costOf(inContextOrder(blocks, request, design.contextOrder));
  if (cut.size > 0 || expiredKept || split || !withinBudget(costOf(pinned), request.budget)) return;
  if (design.fill === 'own') return;
  if (design.fill) {
    const fill = design.fill;
    const want = taken(rest, pinned, fill, request.budget, design, design.groups, request);
    const wanted = new Set(want.map((b) => b.block_id));
    const dropped = forBudget.filter((b) => wanted.has(b.block_id));
    const extra = [...included].filter((id) => !wanted.has(id) && candidates.some((b) => b.block_id === id));
    if (dropped.length + extra.length > 0) {
      const how = fillWords(fill);
      const readings = otherReadings(rest, pinned, fill, request, design, included);
      const costs = (bs: readonly PrincipleBlock[]): string => bs.map((b) => `${quote(b.block_id)} ${Number(design.costOf([b]).toFixed(6))}`).join(', ');
      const parts = [
        dropped.length > 0
          ? `${quotedList(dropped.map((b) => b.block_id))} fit${dropped.length === 1 ? 's' : ''} and ${dropped.length === 1 ? 'is' : 'are'} omitted for the budget`
          : '',
        extra.length > 0
          ? `${quotedList(extra)} ${extra.length === 1 ? 'is' : 'are'} included where ${how} does not take ${extra.length === 1 ? 'it' : 'them'}`
          : '',
      ].filter(Boolean);
      const kept = request.blocks.filter((b) => included.has(b.block_id));
      out.push({
        id: 'ANY-14',
        message:
          `${readings.map((r) => r.words).join(', or ')}${readings.length > 0 ? ': ' : ''}${parts.join('; ')}; ${how} takes ${quotedList([...wanted])}, ` +
          `costing ${Number(costOf(want).toFixed(6))} of ${request.budget} under ${design.estimator}` +
          `${dropped.length > 0 ? ` (${costs(dropped.slice(0, 5))} alone)` : ''}; the answer's blocks cost ${Number(costOf(kept).toFixed(6))} ` +
          `and it says ${answer.estimated_tokens}`,
        expected: [...wanted],
        actual: answer.included,
        ...(readings.length > 0 ? { kinds: readings.map((r) => r.kind) } : {}),
      });
    }
  } else if (forBudget.length > 0 && withinBudget(costOf(candidates), request.budget)) {
    out.push({
      id: 'ANY-14',
      message:
        `every live block fits (together they cost ${Number(costOf(candidates).toFixed(6))} ` +
        `of ${request.budget} under ${design.estimator}), yet ${quotedList(forBudget.map((b) => b.block_id))} ${forBudget.length === 1 ? 'is' : 'are'} omitted for the budget`,
      expected: 'no block omitted for the budget',
      actual: forBudget.map((b) => b.block_id),
    });
  }
}

function orderFinding(request: PrincipleRequest, answer: Result, order: DeclaredContextOrder, out: Finding[]): void {
  const byId = new Map(request.blocks.map((b) => [b.block_id, b]));
  const blocks = answer.included.map((id) => byId.get(id)).filter((b): b is PrincipleBlock => b !== undefined);
  const pinnedFirst = order.pinned_first === true;
  const first = pinnedFirst ? request.blocks.filter((b) => blocks.includes(b) && b.pinned === true) : [];
  // The declared order of the included blocks, as the fill's count reads it too.
  const expected = inContextOrder(blocks, request, order).map((b) => b.block_id);
  const actual = blocks.map((b) => b.block_id);
  if (expected.length !== actual.length || expected.every((id, i) => id === actual[i])) return;
  const reversed = [...expected.slice(first.length)].reverse();
  const backwards = reversed.length > 1 && reversed.every((id, i) => id === actual[first.length + i]);
  const words = order.by === 'chronological' ? 'oldest first' : order.by === 'priority' ? 'highest priority first' : 'in the request’s order';
  out.push({
    id: 'ANY-15',
    message:
      `${backwards ? 'the blocks are written back to front: ' : ''}included lists ${quotedList(actual)}, ` +
      `where the declared order (${words}${pinnedFirst ? ', pinned first' : ''}) is ${quotedList(expected)}`,
    expected,
    actual,
  });
}
