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
import { quotedList } from './finding.js';
import { groupOf } from './groups.js';
import { type Design, withinBudget } from './design.js';

/**
 * Blocks in `order`, ties in the request's order; newest first takes the later of two equal
 * times first, as a history listed oldest first is read from its end.
 */
export function ordered(blocks: readonly PrincipleBlock[], by: DeclaredFill['order'] | DeclaredContextOrder['by']): PrincipleBlock[] {
  const at = new Map(blocks.map((b, i) => [b, by === 'newest_first' ? -i : i]));
  const key = (b: PrincipleBlock): number => {
    if (by === 'priority') return -(typeof b['priority'] === 'number' ? (b['priority'] as number) : 0);
    if (by === 'newest_first') return -(b.created_at ?? 0);
    if (by === 'oldest_first' || by === 'chronological') return b.created_at ?? 0;
    return 0;
  };
  return [...blocks].sort((a, b) => key(a) - key(b) || at.get(a)! - at.get(b)!);
}

const FILL_WORDS: Readonly<Record<DeclaredFill['order'], string>> = {
  priority: 'highest priority first',
  newest_first: 'newest first',
  oldest_first: 'oldest first',
  input: 'in the request’s order',
};

const OTHER_END: Partial<Record<DeclaredFill['order'], DeclaredFill['order']>> = { newest_first: 'oldest_first', oldest_first: 'newest_first' };

/**
 * What the fill considers in `order`: a block, or with `member` the candidates of one group
 * together, where the first of them stands (DES-7 with DES-9).
 */
export function fillUnits(candidates: readonly PrincipleBlock[], order: DeclaredFill['order'], member?: string): PrincipleBlock[][] {
  const units: PrincipleBlock[][] = [];
  const byGroup = new Map<string, PrincipleBlock[]>();
  for (const b of ordered(candidates, order)) {
    const g = groupOf(b, member);
    const unit = g === undefined ? undefined : byGroup.get(g);
    if (unit) unit.push(b);
    else {
      units.push([b]);
      if (g !== undefined) byGroup.set(g, units[units.length - 1]!);
    }
  }
  return units;
}

/** The blocks a fill takes from `candidates`, pinned ones first; `member` links the blocks it takes as one (undefined: block by block). */
export function taken(
  candidates: readonly PrincipleBlock[],
  pinned: readonly PrincipleBlock[],
  fill: DeclaredFill,
  budget: number,
  design: Design,
  member?: string,
): PrincipleBlock[] {
  const out = [...pinned];
  for (const unit of fillUnits(candidates, fill.order, member)) {
    if (withinBudget(design.costOf([...out, ...unit].map((x) => x.content)), budget)) out.push(...unit);
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
  if (cut.size > 0 || expiredKept || split || !withinBudget(design.costOf(pinned.map((b) => b.content)), request.budget)) return;
  if (design.fill === 'own') return;
  if (design.fill) {
    const fill = design.fill;
    const want = taken(rest, pinned, fill, request.budget, design, design.groups);
    const wanted = new Set(want.map((b) => b.block_id));
    const dropped = forBudget.filter((b) => wanted.has(b.block_id)).map((b) => b.block_id);
    const extra = [...included].filter((id) => !wanted.has(id) && candidates.some((b) => b.block_id === id));
    if (dropped.length + extra.length > 0) {
      const other = OTHER_END[fill.order];
      const reversed = other
        ? new Set(taken(rest, pinned, { ...fill, order: other }, request.budget, design, design.groups).map((b) => b.block_id))
        : undefined;
      const inverted = reversed !== undefined && reversed.size === included.size && [...included].every((id) => reversed.has(id));
      const how = `the declared fill (${FILL_WORDS[fill.order]}, ${fill.misfit === 'stop' ? 'stopping at the first block that does not fit' : 'skipping a block that does not fit'})`;
      const parts = [
        dropped.length > 0
          ? `${quotedList(dropped)} fit${dropped.length === 1 ? 's' : ''} and ${dropped.length === 1 ? 'is' : 'are'} omitted for the budget`
          : '',
        extra.length > 0
          ? `${quotedList(extra)} ${extra.length === 1 ? 'is' : 'are'} included where ${how} does not take ${extra.length === 1 ? 'it' : 'them'}`
          : '',
      ].filter(Boolean);
      out.push({
        id: 'ANY-14',
        message:
          `${inverted ? `the blocks are taken from the other end (${FILL_WORDS[other!]}, where the design declares ${FILL_WORDS[fill.order]}): ` : ''}${parts.join('; ')}; ` +
          `${how} takes ${quotedList([...wanted])}`,
        expected: [...wanted],
        actual: answer.included,
      });
    }
  } else if (forBudget.length > 0 && withinBudget(design.costOf(candidates.map((b) => b.content)), request.budget)) {
    out.push({
      id: 'ANY-14',
      message:
        `every live block fits (together they cost ${Number(design.costOf(candidates.map((b) => b.content)).toFixed(6))} ` +
        `of ${request.budget} under ${design.estimator}), yet ${quotedList(forBudget.map((b) => b.block_id))} ${forBudget.length === 1 ? 'is' : 'are'} omitted for the budget`,
      expected: 'no block omitted for the budget',
      actual: forBudget.map((b) => b.block_id),
    });
  }
}

function orderFinding(request: PrincipleRequest, answer: Result, order: DeclaredContextOrder, out: Finding[]): void {
  const byId = new Map(request.blocks.map((b) => [b.block_id, b]));
  const blocks = answer.included.map((id) => byId.get(id)).filter((b): b is PrincipleBlock => b !== undefined);
  const inRequest = request.blocks.filter((b) => blocks.includes(b));
  const pinnedFirst = order.pinned_first === true;
  const first = pinnedFirst ? inRequest.filter((b) => b.pinned === true) : [];
  const expected = [
    ...first,
    ...ordered(
      inRequest.filter((b) => !first.includes(b)),
      order.by,
    ),
  ].map((b) => b.block_id);
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
