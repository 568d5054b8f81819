/**
 * How a design splits the blocks that belong together (SPEC DES-9, ANY-16),
 * read from the failing answers: which half of a group is kept (a tool result
 * without its call, or a call without its result), and, under a declared fill
 * (DES-7), which of the defects users report reproduces the answers exactly: a
 * fill that takes blocks one by one without reading the groups, or one that
 * then repairs an orphan at the start of the history only. A model is named
 * only for the answers it reproduces.
 */
import type { Result } from '../protocol/assembly.js';
import type { PrincipleBlock, PrincipleRequest } from '../judging/principles/finding.js';
import type { Design } from '../judging/principles/design.js';
import { fillCandidates, ordered, taken } from '../judging/principles/fill.js';
import { groupOf, judgedGroups } from '../judging/principles/groups.js';
import type { Observation } from './diagnose.js';

/** One read answer: the request as sent and the result. */
interface Read {
  id: string;
  request: PrincipleRequest;
  answer: Result;
}

/** Oldest first by created_at (absent 0), equal times in the request's order: the history as written. */
const history = (blocks: readonly PrincipleBlock[]): PrincipleBlock[] => ordered(blocks, 'chronological');

/** The groups ANY-16 judges, each oldest first. */
const groupsOf = (request: PrincipleRequest, design: Design, member: string): PrincipleBlock[][] =>
  judgedGroups(request, design, member).map((g) => history(g.blocks));

/** Each split of the answers, by the half kept: the later blocks of a group without the earlier, the reverse, or neither; and whether it stands first in the context. */
function splitsOf(reads: readonly Read[], design: Design, member: string): { later: number; earlier: number; mixed: number; atStart: number } {
  const n = { later: 0, earlier: 0, mixed: 0, atStart: 0 };
  for (const { request, answer } of reads) {
    const included = new Set(answer.included);
    for (const blocks of groupsOf(request, design, member)) {
      const kept = blocks.map((b) => included.has(b.block_id));
      if (kept.every(Boolean) || !kept.some(Boolean)) continue;
      const firstKept = kept.indexOf(true);
      const lastLeft = kept.lastIndexOf(false);
      if (firstKept > lastLeft) n.later++;
      else if (kept.lastIndexOf(true) < kept.indexOf(false)) n.earlier++;
      else n.mixed++;
      if (blocks.some((b) => b.block_id === answer.included[0])) n.atStart++;
    }
  }
  return n;
}

/** A defect users report, as the selection it makes under the declared fill. */
interface SplitModel {
  words: string;
  select: (r: Read, design: Design, capabilities: readonly string[]) => Set<string>;
}

/** The declared fill taken block by block, the groups not read. */
function ungrouped(r: Read, design: Design, capabilities: readonly string[]): PrincipleBlock[] {
  const { candidates, pinned } = fillCandidates(r.request, r.answer, capabilities, design, undefined);
  const fill = design.fill as Exclude<Design['fill'], 'own' | undefined>;
  return taken(
    candidates.filter((b) => !pinned.includes(b)),
    pinned,
    fill,
    r.request.budget,
    design,
  );
}

const MODELS: readonly SplitModel[] = [
  {
    words: 'the declared fill taken block by block, the groups not read',
    select: (r, d, caps) => new Set(ungrouped(r, d, caps).map((b) => b.block_id)),
  },
  {
    words:
      'orphans repaired at the start of the history only (the declared fill taken block by block, then a split group’s blocks dropped from the start of the history while one stands first)',
    select: (r, d, caps) => {
      const member = d.groups!;
      let kept = history(ungrouped(r, d, caps));
      const ids = (): Set<string> => new Set(kept.map((b) => b.block_id));
      const whole = (b: PrincipleBlock): boolean => {
        const g = groupOf(b, member);
        const now = ids();
        return g === undefined || r.request.blocks.filter((x) => groupOf(x, member) === g).every((x) => now.has(x.block_id));
      };
      while (kept.length > 0 && !whole(kept[0]!)) kept = kept.slice(1);
      return ids();
    },
  },
];

const same = (a: ReadonlySet<string>, b: readonly string[]): boolean => a.size === new Set(b).size && b.every((id) => a.has(id));

/**
 * The ANY-16 summary for the split answers (`splitIds`) among the `observations` (the passing
 * ones read for the model's contradictions), and which failing answers its model reproduces;
 * undefined when no group is split.
 */
export function splitCause(
  observations: readonly Observation[],
  splitIds: readonly string[],
  design: Design,
  capabilities: readonly string[],
): { summary: string; explained: string[] } | undefined {
  const member = design.groups;
  if (member === undefined) return undefined;
  const readOf = (o: Observation): Read[] =>
    o.outcome.kind === 'result' ? [{ id: o.id, request: o.request as PrincipleRequest, answer: o.outcome.value as Result }] : [];
  const reads = observations.filter((o) => !o.passed).flatMap(readOf);
  const passing = observations.filter((o) => o.passed).flatMap(readOf);
  const split = reads.filter((r) => splitIds.includes(r.id));
  const n = splitsOf(split, design, member);
  const splits = n.later + n.earlier + n.mixed;
  if (splits === 0) return undefined;
  const halves = [
    n.later > 0 ? `the later blocks of a group kept without the earlier (a tool result without its call) in ${n.later}` : '',
    n.earlier > 0 ? `the earlier kept without the later (a tool call without its result) in ${n.earlier}` : '',
    n.mixed > 0 ? `blocks kept from the middle of a group in ${n.mixed}` : '',
  ].filter(Boolean);
  const where = n.atStart === 0 && splits > 1 ? ', none of them at the start of the context' : '';
  let summary = `blocks that belong together are split: ${halves.join(', ')} of ${splits} split group${splits === 1 ? '' : 's'}${where}`;
  let explained = [...splitIds];
  if (design.fill !== undefined && design.fill !== 'own') {
    // The model that reproduces the most failing answers less the passing answers it would not give (a repair at the start
    // shows in the answers that passed); one that explains fewer than half of the splits is not named.
    const reproduces = (m: SplitModel, r: Read): boolean => same(m.select(r, design, capabilities), r.answer.included);
    const best = MODELS.map((m) => ({
      m,
      hits: reads.filter((r) => reproduces(m, r)).map((r) => r.id),
      contradicts: passing.filter((r) => !reproduces(m, r)).length,
    }))
      .map((x) => ({ ...x, splitHits: x.hits.filter((id) => splitIds.includes(id)).length }))
      .sort((a, b) => b.hits.length - b.contradicts - (a.hits.length - a.contradicts) || b.splitHits - a.splitHits)[0]!;
    if (best.splitHits * 2 > split.length && best.hits.length > best.contradicts) {
      const contradicts = best.contradicts === 0 ? 'none' : String(best.contradicts);
      summary += `; ${best.m.words} reproduces ${best.hits.length} failing answer${best.hits.length === 1 ? '' : 's'} exactly and contradicts ${contradicts} of the ${passing.length} passing`;
      explained = [...new Set([...explained, ...best.hits])];
    }
  }
  return { summary, explained };
}
