/**
 * The named hooks of the defect model (model.ts): the points where a design
 * varies (reference/design.ts), each with the specification's reading as its
 * default. A defect overrides the hooks it changes: its entry's `defects`
 * name them (defects/*.ts), so two defects that override the same hook
 * conflict, like two that set the same switch.
 */
import { RANKING_POOL_ORDER, SPEC_COUNT, SPEC_RENDER } from '../../reference/index.js';
import type { Rounding, Tier } from '../../reference/index.js';

/** Where an omission comes from (model.ts Site). */
export type Site = 'expired' | 'excluded' | 'superseded' | 'disputed' | 'pool' | 'required' | 'max_segments' | 'ranked';

/** A block as the model's selection reads and moves it. */
export interface ModelBlock {
  index: number;
  id: string;
  source: string;
  content: string;
  /** What selection ranks by (URGENT boost aside, the priority). */
  rank: number;
  priority: number;
  createdAt: number;
  dated: boolean;
  ttl: number;
  pinned: boolean;
  status: string;
  confidence: number;
  cost: number;
  tier: Tier;
  /** Where selection put it. */
  state: 'live' | 'pinned' | 'required' | 'tier' | 'overflow' | 'omitted';
  site?: Site;
  /** The content as rendered: cut by a truncating fit. */
  shown: string;
}

/** The two preferences of CON-6. */
export interface Preferences {
  prefer_recency: boolean;
  prefer_high_confidence: boolean;
}

export interface ModelHooks {
  /** NUM-1: the length of a text, in the units the estimate divides. */
  length(text: string): number;
  /** NUM-2: how length / chars per token becomes whole tokens. */
  rounding: Rounding;
  /** NUM-2: the least a block costs. */
  minimumCost: 0 | 1;
  /** TIER-2, NUM-3: a tier's budget out of a positive budget left. */
  tierBudget(budget: number, pct: number): number;
  /** NUM-2: the text a block's cost counts. */
  costedText(block: Pick<ModelBlock, 'source' | 'id' | 'content'>): string;
  /** TIER-3: what selection ranks a block by. */
  rankOf(priority: number, content: string): number;
  /** NUM-4: the order of two block ids (selection's ties and rendering). */
  compareIds(a: string, b: string): number;
  /** TIER-3: the order of two blocks the ranking key ties on until block_id; `byId` is the id order in force. */
  tieBreak(x: ModelBlock, y: ModelBlock, byId: (a: string, b: string) => number): number;
  /** TIER-7: the order the pool is offered the blocks the tiers set aside (given in ranking order). */
  poolOrder(aside: readonly ModelBlock[]): readonly ModelBlock[];
  /** EXP-1: whether a block of this ttl_seconds can expire at all. */
  expires(ttl: number): boolean;
  /** EXP-1: whether `now` is past the end of a block's life, created_at + ttl_seconds. */
  pastEnd(now: number, end: number): boolean;
  /** REN-4: a block's content as the context shows it. */
  body(content: string): string;
  /** TIER-9: the answer's estimated_tokens, from the included blocks' costs and the context rendered. */
  estimate(spent: number, context: string): number;
  /** RES-2: whether an omission is listed in the answer. */
  listsOmission(omission: { block_id: string; reason: string }): boolean;
  /** RES-3: the answer's total_budget, from the request's budget and the answer's estimated_tokens. */
  totalBudget(budget: number, estimated: number): number;
  /** CON-5: the cap on non-pinned included blocks, from the request's max_segments (null: none asked). */
  maxSegments(asked: number | null): number | null;
  /** CON-1: the block ids the request's exclude omits. */
  exclude(asked: readonly string[]): readonly string[];
  /** CON-2: the block ids the request's must_include requires. */
  mustInclude(asked: readonly string[]): readonly string[];
  /** CON-6: the preferences the ranking key reads, from the request's. */
  preferences(asked: Preferences): Preferences;
  /** CON-7: include_disputed when the request does not say. */
  includeDisputedByDefault: boolean;
  /** CON-7: include_superseded when the request does not say. */
  includeSupersededByDefault: boolean;
  /** RANK-1: the order of two equal-priority ranked lines, from their block ids and input places. */
  rankedTie(x: { id: string; index: number }, y: { id: string; index: number }): number;
  /** RANK-4: whether ranked packing stops at the first line that does not fit. */
  rankedStopsAtMisfit: boolean;
  /** RANK-3: the text a ranked line's cost counts, from the line and the block's content. */
  rankedCostedText(line: string, content: string): string;
  /** RANK-6: the ttl_seconds a ranked block lives by, from its own and whether it is dated. */
  rankedTtl(ttl: number, dated: boolean): number;
  /** PIN-4: the order of `included`, from the render order and the ids of the pinned blocks. */
  includedOrder(rendered: readonly string[], pinned: ReadonlySet<string>): readonly string[];
}

/** NUM-1: code points, a lone surrogate counted as one (the string iterator yields it alone). */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length) {
      const v = s.charCodeAt(i + 1);
      if (v >= 0xdc00 && v <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** NUM-4: code-point order, as Python orders str. */
export function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  // Where no surrogate is involved before the first difference, UTF-16 order is code-point order.
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const u = i < a.length ? a.charCodeAt(i) : -1;
  const v = i < b.length ? b.charCodeAt(i) : -1;
  if (u < 0xd800 && v < 0xd800 && (i === 0 || !isHighSurrogate(a.charCodeAt(i - 1)))) return u < v ? -1 : 1;
  const x = a[Symbol.iterator]();
  const y = b[Symbol.iterator]();
  for (;;) {
    const p = x.next();
    const q = y.next();
    if (p.done) return q.done ? 0 : -1;
    if (q.done) return 1;
    const c = p.value.codePointAt(0)!;
    const d = q.value.codePointAt(0)!;
    if (c !== d) return c < d ? -1 : 1;
  }
}

const isHighSurrogate = (u: number): boolean => u >= 0xd800 && u <= 0xdbff;

/**
 * The specification's design as the model reads it: the tables and the
 * counting rule are the design's (reference/design.ts SPEC_DESIGN); the
 * arithmetic is written here again in plain code (BigInt, a code-point
 * loop), so the model and the reference's fast path keep checking each other.
 */
export const SPEC_HOOKS: ModelHooks = Object.freeze({
  length: codePoints,
  rounding: SPEC_COUNT.rounding,
  minimumCost: SPEC_COUNT.minimum,
  tierBudget: (budget: number, pct: number) => Number((BigInt(budget) * BigInt(pct)) / 100n),
  costedText: (b: Pick<ModelBlock, 'content'>) => b.content,
  rankOf: (priority: number) => priority,
  compareIds: byCodePoint,
  tieBreak: (x: ModelBlock, y: ModelBlock, byId: (a: string, b: string) => number) => byId(x.id, y.id),
  poolOrder: RANKING_POOL_ORDER,
  expires: (ttl: number) => ttl > 0,
  pastEnd: (now: number, end: number) => now > end,
  body: (content: string) => content,
  estimate: (spent: number) => spent,
  listsOmission: () => true,
  totalBudget: (budget: number) => budget,
  maxSegments: (asked: number | null) => asked,
  exclude: (asked: readonly string[]) => asked,
  mustInclude: (asked: readonly string[]) => asked,
  preferences: (asked: Preferences) => asked,
  includeDisputedByDefault: true,
  includeSupersededByDefault: false,
  includedOrder: (rendered: readonly string[]) => rendered,
  rankedTie: (x: { index: number }, y: { index: number }) => x.index - y.index,
  rankedStopsAtMisfit: true,
  rankedCostedText: (line: string) => line,
  rankedTtl: (ttl: number) => ttl,
});

const HOOK_NAMES = Object.keys(SPEC_HOOKS) as (keyof ModelHooks)[];

/** The hooks in force under a set of overrides: each override, or the specification's reading. */
export function hooksOf(overrides: Partial<ModelHooks>): ModelHooks {
  let out: ModelHooks | undefined;
  for (const name of HOOK_NAMES) {
    const h = overrides[name];
    if (h === undefined) continue;
    out ??= { ...SPEC_HOOKS };
    (out as unknown as Record<string, unknown>)[name] = h;
  }
  return out ?? SPEC_HOOKS;
}

/** The header the specification writes for a block (REN-2), as the model's default. */
export const specHeader = (b: Pick<ModelBlock, 'source' | 'id'>): string => SPEC_RENDER.header({ source: b.source, block_id: b.id });
