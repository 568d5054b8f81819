/**
 * Blocks that belong together (SPEC DES-9, ANY-16), from the defect users
 * report most: trimming keeps a tool's result and drops the call that made it,
 * or repairs an orphan only at the start of the history. Designs written here
 * from those descriptions, judged over the corpus and the properties: the
 * group-aware one passes under any member name it declares, the others fail
 * ANY-16 by name.
 */
import { describe, expect, it } from 'vitest';
import { fromFunctions } from '../../adapters/inprocess.js';
import { loadCorpus } from '../../judging/cases/load.js';
import { runSuite } from '../../running/run.js';
import type { Manifest } from '../../protocol/types.js';

type Block = { block_id: string; source: string; content: string; priority: number; created_at?: number; ttl_seconds?: number; pinned?: boolean } & Record<
  string,
  unknown
>;
type Request = { now: number; budget: number; blocks: Block[] };

const cost = (b: Block): number => Math.max(1, Math.floor([...b.content].length / 4));
const expired = (b: Block, now: number): boolean => (b.ttl_seconds ?? 0) > 0 && now > (b.created_at ?? 0) + (b.ttl_seconds ?? 0);
const render = (kept: Block[]): string => kept.map((b) => `[${b.source} · ${b.block_id}]\n${b.content}`).join('\n\n');

/** Greedy by priority over units: a group (by `member`) is one unit, taken whole when it fits; a unit with an expired block goes whole; pinned units first. */
const groupAware = (member: string) => (request: unknown) => {
  const r = request as Request;
  const units = new Map<string, Block[]>();
  r.blocks.forEach((b, i) => {
    const key = typeof b[member] === 'string' ? `g:${b[member]}` : `b:${i}`;
    units.set(key, [...(units.get(key) ?? []), b]);
  });
  const omissions: { block_id: string; reason: string }[] = [];
  // A unit with an expired block goes whole, unless a live pinned block holds the rest of it in.
  const live = [...units.values()].flatMap((u) => {
    if (!u.some((b) => expired(b, r.now))) return [u];
    const holds = u.some((b) => b.pinned && !expired(b, r.now));
    for (const b of u) if (expired(b, r.now) || !holds) omissions.push({ block_id: b.block_id, reason: expired(b, r.now) ? 'expired' : 'budget' });
    return holds ? [u.filter((b) => !expired(b, r.now))] : [];
  });
  const pinnedCost = live.filter((u) => u.some((b) => b.pinned)).reduce((n, u) => n + u.reduce((m, b) => m + cost(b), 0), 0);
  if (pinnedCost > r.budget) return { error: { code: 'pinned_overflow', message: 'the pinned groups alone exceed the budget' } };
  const rank = (u: Block[]): number => (u.some((b) => b.pinned) ? Number.POSITIVE_INFINITY : Math.max(...u.map((b) => b.priority)));
  const ordered = live.map((u, i) => ({ u, i })).sort((a, b) => rank(b.u) - rank(a.u) || a.i - b.i);
  const kept: Block[] = [];
  let used = 0;
  for (const { u } of ordered) {
    const c = u.reduce((n, b) => n + cost(b), 0);
    if (used + c <= r.budget || u.some((b) => b.pinned)) {
      kept.push(...u);
      used += c;
    } else for (const b of u) omissions.push({ block_id: b.block_id, reason: 'budget' });
  }
  const inOrder = r.blocks.filter((b) => kept.includes(b));
  return { context: render(inOrder), included: inOrder.map((b) => b.block_id), estimated_tokens: used, total_budget: r.budget, omissions };
};

/** Greedy by priority, block by block, blind to groups: a call kept without its result whenever the result is the one that does not fit. */
const blind = groupAware('no-such-member');

/** The newest blocks that fit; then, if the oldest kept one is a result whose call was dropped, that one orphan is dropped too (the repair only looks at the start). */
const repairsAtStart = (member: string) => (request: unknown) => {
  const r = request as Request;
  const live = r.blocks.filter((b) => !expired(b, r.now));
  const omissions = r.blocks.filter((b) => expired(b, r.now)).map((b) => ({ block_id: b.block_id, reason: 'expired' }));
  const newest = live.map((b, i) => ({ b, i })).sort((x, y) => (y.b.created_at ?? 0) - (x.b.created_at ?? 0) || y.i - x.i);
  let kept: Block[] = [];
  let used = 0;
  for (const { b } of newest) {
    if (used + cost(b) <= r.budget) {
      kept.push(b);
      used += cost(b);
    }
  }
  kept = r.blocks.filter((b) => kept.includes(b));
  const first = kept[0];
  if (
    first &&
    typeof first[member] === 'string' &&
    !kept.some((b) => b !== first && b[member] === first[member]) &&
    r.blocks.some((b) => b !== first && b[member] === first[member])
  ) {
    kept = kept.slice(1);
    used -= cost(first);
  }
  for (const b of live) if (!kept.includes(b)) omissions.push({ block_id: b.block_id, reason: 'budget' });
  return { context: render(kept), included: kept.map((b) => b.block_id), estimated_tokens: used, total_budget: r.budget, omissions };
};

const manifest = (groups: string): Manifest => ({
  name: `groups-${groups}`,
  version: '1',
  profiles: ['any'],
  capabilities: ['pinned'],
  design: { groups, fill: 'own' },
});
const judged = async (assemble: (r: unknown) => unknown, m: Manifest) => {
  const report = await runSuite({
    cases: loadCorpus().cases,
    impl: fromFunctions(assemble, undefined, m),
    manifest: m,
    timeoutMs: 5000,
    concurrency: 4,
    properties: 300,
    seed: 11,
  });
  return report.cases.filter((c) => c.status !== 'pass' && c.status !== 'skip');
};

describe('blocks that belong together', () => {
  it('a group-aware design passes the corpus and the properties, under the member name it declares', async () => {
    for (const member of ['group', 'tool_call_id'])
      expect((await judged(groupAware(member), manifest(member))).map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  }, 120_000);

  it('a design blind to groups keeps a call without its result: ANY-16, named on the case written for it and by the property', async () => {
    const failing = await judged(blind, manifest('group'));
    expect(failing.map((c) => c.id)).toEqual(expect.arrayContaining(['any/tool-call-and-result-kept-together', 'property/any-accounting']));
    expect(failing.every((c) => /ANY-16 group "[^"]+" \(group\) is split/.test(c.message ?? ''))).toBe(true);
  }, 120_000);

  it('an orphan repaired only at the start of the history still leaves one in the middle: ANY-16 on interleaved exchanges', async () => {
    const failing = await judged(repairsAtStart('group'), manifest('group'));
    expect(failing.map((c) => c.id)).toContain('any/groups-interleaved-in-time');
    expect(failing.find((c) => c.id === 'any/groups-interleaved-in-time')?.message).toMatch(/^ANY-16 group "t-[ab]" \(group\) is split/m);
  }, 120_000);
});
