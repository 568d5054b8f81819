/**
 * The diagnosis of a design judged at the any level alone (SPEC section 18,
 * the decision on how the diagnosis reads the level): the catalogue's models
 * are tiered's and ranked's algorithm, so none describes a design without
 * tiers, and none is offered to one, however many of its answers it happens
 * to match; the principles its failures break are the likely cause, first.
 * A validation entry, which reads no design, is still offered.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../diagnosis/catalogue.js';
import type { Manifest } from '../../protocol/types.js';
import { greedy, greedyManifest } from '../fixtures/other-designs/greedy.js';
import type { GreedyDefects } from '../fixtures/other-designs/greedy.js';
import { likelyCauseOf } from './likely-cause-of.js';

async function cause(defects: GreedyDefects, manifest: Manifest) {
  return (await likelyCauseOf(greedy(defects), manifest)).cause!;
}

const section = (id: string): string | undefined => CATALOGUE.find((e) => e.id === id)?.section;

/**
 * Greedy by priority in input order among equals, no tiers, the specification's render and
 * estimate, expired blocks left out; every drop silent (it reports no omissions): where the
 * only blocks it drops are expired ones, the tiered model that drops expired omissions
 * answers exactly as it does, by coincidence of design.
 */
function silentGreedy(request: unknown): unknown {
  const r = request as {
    now: number;
    budget: number;
    blocks: { block_id: string; source: string; content: string; priority: number; created_at?: number; ttl_seconds?: number }[];
  };
  const live = r.blocks.filter((b) => !((b.ttl_seconds ?? 0) > 0 && r.now > (b.created_at ?? 0) + (b.ttl_seconds ?? 0)));
  const ranked = live.map((b, i) => ({ b, i })).sort((x, y) => y.b.priority - x.b.priority || x.i - y.i);
  const kept: typeof r.blocks = [];
  let used = 0;
  for (const { b } of ranked) {
    const cost = Math.max(1, Math.floor([...b.content].length / 4));
    if (used + cost <= r.budget) {
      kept.push(b);
      used += cost;
    }
  }
  const context = kept.map((b) => `[${b.source} \u00b7 ${b.block_id}]\n${b.content}`).join('\n\n');
  return { context, included: kept.map((b) => b.block_id), estimated_tokens: used, total_budget: r.budget, omissions: [] };
}

describe('a design at the any level alone', () => {
  it('silent drops in the specification render: no tiered model is offered, however many answers one matches; ANY-3 leads', async () => {
    const c = (await likelyCauseOf(silentGreedy, { name: 'silent', version: '1', profiles: ['any'], capabilities: [] })).cause!;
    expect(c.diagnosis.causes.map((x) => x.id)).toEqual([]);
    expect(c.report.principles?.[0]?.requirement).toBe('ANY-3');
  }, 60_000);

  for (const [what, defects, principle] of [
    ['silent drops', { silentDrops: true }, 'ANY-3'],
    ['no expiry', { noExpiry: true }, 'ANY-5'],
    ['cut to fit', { cutToFit: true }, 'ANY-1'],
    ['keep at least 4', { keepAtLeast: 4 }, 'ANY-2'],
  ] as const) {
    it(`${what}: no tiered model is offered; ${principle} leads the likely cause`, async () => {
      const c = await cause(defects, greedyManifest('greedy-any'));
      expect(c.diagnosis.causes.filter((x) => x.defects.some((id) => section(id) !== 'validation')).map((x) => x.id)).toEqual([]);
      expect(c.report.principles?.[0]?.requirement).toBe(principle);
      expect(c.text.split('\n').slice(0, 3).join('\n')).toMatch(
        new RegExp(`broken principles, whatever the design[^\\n]*\\n\\s+[^\\n]*\\(${principle}\\): explains`),
      );
    }, 60_000);
  }

  it('a block listed twice is named as listed twice in the likely cause, not as dropped', async () => {
    const twice = (request: unknown): unknown => {
      const r = greedy()(request) as { included: string[] };
      return r.included.length > 0 ? { ...r, included: [...r.included, r.included[0]] } : r;
    };
    const c = (await likelyCauseOf(twice, greedyManifest('greedy-twice'))).cause!;
    const summaries = (c.report.principles ?? []).filter((p) => p.requirement === 'ANY-3').map((p) => p.summary);
    expect(summaries).toContain('blocks are named more than once, or named though the request does not hold them');
    expect(summaries).not.toContain('blocks are dropped without being named');
  }, 60_000);
});
