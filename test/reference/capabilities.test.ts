/** SPEC section 8: pinned, constraints, lifecycle and working_context on the tiered profile. */
import { describe, expect, it } from 'vitest';
import type { Warning } from '../../reference/index.js';
import { NOW, TIER_BUDGET, block, cost, ok, refused, tiered } from './helpers.js';

const expired = { created_at: NOW - 100, ttl_seconds: 10 };
const pinned = { pinned: true };
const warningPairs = (ws: Warning[] | undefined): [string, string | undefined][] => (ws ?? []).map((w) => [w.code, w.block_id]);

describe('pinned', () => {
  it('admits pinned blocks first and renders them first, in input order', () => {
    const r = ok(tiered(100, [block('p-z', 'tactics', 'zz', 0, pinned), block('n', 'coverage', 'n', 9), block('p-a', 'coverage', 'aa', 0, pinned)]));
    expect(r.included).toEqual(['p-z', 'p-a', 'n']);
    expect(r.segments?.map((s) => s.reason)).toEqual(['pinned', 'pinned', 'tier']);
    expect(r.context.startsWith('[tactics \u00b7 p-z]\nzz\n\n[coverage \u00b7 p-a]\naa')).toBe(true);
  });

  it('refuses with pinned_overflow, and no context, when pinned blocks cost more than the budget', () => {
    const e = refused(tiered(20, [block('p1', 'memory', cost(15), 1, pinned), block('p2', 'memory', cost(10), 1, pinned), block('n', 'memory', 'x')]));
    expect(e.code).toBe('pinned_overflow');
    expect(e.message).toMatch(/25/);
  });

  it('accepts pinned blocks that cost exactly the budget and leaves nothing for the rest', () => {
    const r = ok(tiered(20, [block('p', 'memory', cost(20), 1, pinned), block('n', 'coverage', 'x', 9)]));
    expect(r.included).toEqual(['p']);
    expect(r.omissions).toEqual([{ block_id: 'n', reason: TIER_BUDGET }]);
    expect(r.estimated_tokens).toBe(20);
  });

  it('costs nothing for an expired pinned block, which is omitted as expired', () => {
    const r = ok(tiered(10, [block('p', 'memory', cost(1000), 1, { ...pinned, ...expired }), block('n', 'coverage', 'x')]));
    expect(r.included).toEqual(['n']);
    expect(r.omissions).toEqual([{ block_id: 'p', reason: 'expired' }]);
  });

  it('shrinks the shared budget: beside a 50-token pin at budget 100 the working tier is 20', () => {
    const pin = block('p', 'memory', cost(50), 0, pinned);
    expect(ok(tiered(100, [pin, block('w', 'coverage', cost(20))])).segments?.[1]).toMatchObject({ block_id: 'w', reason: 'tier' });
    expect(ok(tiered(100, [pin, block('w', 'coverage', cost(21))])).segments?.[1]).toMatchObject({ block_id: 'w', reason: 'overflow' });
    // The pool of B = 50 is 20 + 10 + 12 + 7 = 49.
    expect(ok(tiered(100, [pin, block('w', 'coverage', cost(49))])).included).toEqual(['p', 'w']);
    expect(ok(tiered(100, [pin, block('w', 'coverage', cost(50))])).included).toEqual(['p']);
  });

  it('is never omitted for max_segments, and does not count toward it', () => {
    const r = ok(
      tiered(100, [block('p1', 'memory', 'x', 0, pinned), block('p2', 'memory', 'x', 0, pinned), block('a', 'memory', 'x', 2), block('b', 'memory', 'x', 1)], {
        max_segments: 1,
      }),
    );
    expect(r.included).toEqual(['p1', 'p2', 'a']);
    expect(r.omissions).toEqual([{ block_id: 'b', reason: 'max_segments' }]);
  });

  it('is subject to exclude and lifecycle like any other block, and then costs nothing', () => {
    const r = ok(
      tiered(
        10,
        [block('p-x', 'memory', cost(100), 1, pinned), block('p-s', 'memory', cost(100), 1, { ...pinned, status: 'superseded' }), block('n', 'memory', 'x')],
        { exclude: ['p-x'] },
      ),
    );
    expect(r.included).toEqual(['n']);
    expect(r.omissions).toEqual([
      { block_id: 'p-x', reason: 'excluded' },
      { block_id: 'p-s', reason: 'superseded' },
    ]);
  });

  it('satisfies must_include when the required block is pinned', () => {
    const r = ok(tiered(10, [block('p', 'memory', 'x', 0, pinned)], { must_include: ['p'] }));
    expect(r.included).toEqual(['p']);
    expect(r.warnings).toEqual([]);
  });
});

describe('constraints: exclude', () => {
  it('omits excluded blocks as excluded, in input order, after the expired ones', () => {
    const r = ok(
      tiered(100, [block('x2', 'memory', 'x'), block('e', 'memory', 'x', 1, expired), block('x1', 'memory', 'x'), block('a', 'memory', 'x')], {
        exclude: ['x1', 'x2', 'e', 'ghost'],
      }),
    );
    expect(r.included).toEqual(['a']);
    expect(r.omissions).toEqual([
      { block_id: 'e', reason: 'expired' },
      { block_id: 'x2', reason: 'excluded' },
      { block_id: 'x1', reason: 'excluded' },
    ]);
  });
});

describe('constraints: must_include', () => {
  it('admits a required block before the tiers, even over a higher-priority block', () => {
    // Budget 10: without the constraint w (p9) takes the pool. With r required (5), B = 5: tiers 2, 1, 1, 0,
    // so the pool is at most 4 and w (5) is out.
    const blocks = [block('r', 'coverage', cost(5), 0), block('w', 'coverage', cost(5), 9)];
    expect(ok(tiered(10, blocks)).included).toEqual(['w']);
    const r = ok(tiered(10, blocks, { must_include: ['r'] }));
    expect(r.included).toEqual(['r']);
    expect(r.omissions).toEqual([{ block_id: 'w', reason: TIER_BUDGET }]);
    expect(r.segments?.[0]?.reason).toBe('required');
  });

  it('admits required blocks in ranking-key order, each when it fits what is left', () => {
    // Budget 10: r1 (6) fits, r2 (6) does not with 4 left, r3 (4) still does.
    const r = ok(
      tiered(10, [block('r3', 'memory', cost(4), 0), block('r2', 'memory', cost(6), 1), block('r1', 'memory', cost(6), 2)], {
        must_include: ['r1', 'r2', 'r3'],
      }),
    );
    expect(r.included).toEqual(['r1', 'r3']);
    expect(r.omissions).toEqual([{ block_id: 'r2', reason: 'budget_exhausted' }]);
    expect(warningPairs(r.warnings)).toEqual([
      ['truncated', undefined],
      ['required_ref_omitted', 'r2'],
    ]);
  });

  it('omits a required block that does not fit as budget_exhausted, after filters and before tier omissions', () => {
    const r = ok(
      tiered(10, [block('x', 'coverage', cost(20), 9), block('r', 'coverage', cost(11)), block('e', 'coverage', 'x', 1, expired)], { must_include: ['r'] }),
    );
    expect(r.omissions).toEqual([
      { block_id: 'e', reason: 'expired' },
      { block_id: 'r', reason: 'budget_exhausted' },
      { block_id: 'x', reason: TIER_BUDGET },
    ]);
    expect(r.truncated).toBe(true);
  });

  it('warns once, and omits nothing, for an unknown or repeated required id, in must_include order', () => {
    const r = ok(tiered(10, [block('a', 'memory', 'x')], { must_include: ['zeta', 'a', 'alpha', 'zeta'] }));
    expect(r.included).toEqual(['a']);
    expect(r.omissions).toEqual([]);
    expect(warningPairs(r.warnings)).toEqual([
      ['required_ref_omitted', 'zeta'],
      ['required_ref_omitted', 'alpha'],
    ]);
  });

  it('warns for a required block that is expired, excluded or filtered by lifecycle, omitted for that reason only', () => {
    const r = ok(
      tiered(10, [block('e', 'memory', 'x', 1, expired), block('x', 'memory', 'x'), block('s', 'memory', 'x', 1, { status: 'superseded' })], {
        must_include: ['e', 'x', 's'],
        exclude: ['x'],
      }),
    );
    expect(r.omissions).toEqual([
      { block_id: 'e', reason: 'expired' },
      { block_id: 'x', reason: 'excluded' },
      { block_id: 's', reason: 'superseded' },
    ]);
    expect(warningPairs(r.warnings)).toEqual([
      ['empty_context', undefined],
      ['required_ref_omitted', 'e'],
      ['required_ref_omitted', 'x'],
      ['required_ref_omitted', 's'],
    ]);
  });
});

describe('constraints: max_segments', () => {
  it('keeps the first blocks by the ranking key and omits the rest last, in ranking order', () => {
    const r = ok(
      tiered(
        100,
        [
          block('d', 'memory', 'x', 1),
          block('b', 'memory', 'x', 3),
          block('big', 'memory', cost(200), 9),
          block('a', 'coverage', 'x', 4),
          block('c', 'memory', 'x', 2),
        ],
        { max_segments: 2 },
      ),
    );
    expect(r.included).toEqual(['a', 'b']);
    expect(r.omissions).toEqual([
      { block_id: 'big', reason: TIER_BUDGET },
      { block_id: 'c', reason: 'max_segments' },
      { block_id: 'd', reason: 'max_segments' },
    ]);
    expect(r.truncated).toBe(true);
  });

  it('drops a required block when higher-ranked blocks fill the cap, and then warns', () => {
    const r = ok(tiered(100, [block('r', 'memory', 'x', 0), block('h', 'memory', 'x', 5)], { must_include: ['r'], max_segments: 1 }));
    expect(r.included).toEqual(['h']);
    expect(r.omissions).toEqual([{ block_id: 'r', reason: 'max_segments' }]);
    expect(warningPairs(r.warnings)).toEqual([
      ['truncated', undefined],
      ['required_ref_omitted', 'r'],
    ]);
  });

  it('omits nothing when the included blocks are within the cap, and null means no cap', () => {
    const blocks = [block('a', 'memory', 'x'), block('b', 'memory', 'x')];
    expect(ok(tiered(100, blocks, { max_segments: 2 })).omissions).toEqual([]);
    expect(ok(tiered(100, blocks, { max_segments: null })).included).toEqual(['a', 'b']);
  });
});

describe('constraints: preferences', () => {
  // Budget 3: only one 1-token block fits, so the ranking key alone decides.
  const pair = (a: object, b: object) => [block('a', 'coverage', 'x', 1, a), block('b', 'coverage', 'y', 1, b)];

  it('breaks a priority tie by higher confidence with prefer_high_confidence, and by block_id without it', () => {
    const blocks = pair({ confidence: 0.5 }, { confidence: 0.9 });
    expect(ok(tiered(3, blocks)).included).toEqual(['a']);
    expect(ok(tiered(3, blocks, { prefer_high_confidence: true })).included).toEqual(['b']);
  });

  it('takes an absent confidence as 1 (REQ-4), so it beats 0.5 and ties with 1', () => {
    expect(ok(tiered(3, pair({ confidence: 0.5 }, {}), { prefer_high_confidence: true })).included).toEqual(['b']);
    expect(
      ok(tiered(3, [block('b', 'coverage', 'x', 1, { confidence: 1 }), block('a', 'coverage', 'y', 1)], { prefer_high_confidence: true })).included,
    ).toEqual(['a']);
  });

  it('breaks a priority tie by the newer created_at with prefer_recency', () => {
    const blocks = pair({ created_at: NOW - 100 }, { created_at: NOW });
    expect(ok(tiered(3, blocks)).included).toEqual(['a']);
    expect(ok(tiered(3, blocks, { prefer_recency: true })).included).toEqual(['b']);
  });

  it('puts confidence before recency, and priority before both', () => {
    const blocks = pair({ confidence: 0.9, created_at: NOW - 100 }, { confidence: 0.5, created_at: NOW });
    expect(ok(tiered(3, blocks, { prefer_recency: true, prefer_high_confidence: true })).included).toEqual(['a']);
    const withHigher = [...blocks, block('c', 'coverage', 'z', 2, { confidence: 0, created_at: 0 })];
    expect(ok(tiered(3, withHigher, { prefer_recency: true, prefer_high_confidence: true })).included).toEqual(['c']);
  });

  it('falls back to block_id when priority, confidence and created_at all tie', () => {
    const blocks = [block('b', 'coverage', 'x', 1, { created_at: 5 }), block('a', 'coverage', 'y', 1, { created_at: 5 })];
    expect(ok(tiered(3, blocks, { prefer_recency: true, prefer_high_confidence: true })).included).toEqual(['a']);
  });

  it('changes selection only: rendering stays by source, -priority, block_id', () => {
    const r = ok(
      tiered(100, [block('b', 'memory', 'x', 1, { confidence: 1 }), block('a', 'memory', 'y', 1, { confidence: 0 }), block('c', 'coverage', 'z', 0)], {
        prefer_high_confidence: true,
      }),
    );
    expect(r.included).toEqual(['c', 'a', 'b']);
  });

  it('ranks several blocks by confidence, highest first, keeping the two best under max_segments', () => {
    const blocks = [0.2, 0.9, 0.5, 0.7, 0.1].map((c, i) => block(`b${i}`, 'memory', 'x', 1, { confidence: c }));
    const r = ok(tiered(100, blocks, { max_segments: 2, prefer_high_confidence: true }));
    expect(r.included).toEqual(['b1', 'b3']);
    expect(r.omissions.map((o) => o.block_id)).toEqual(['b2', 'b0', 'b4']);
  });

  it('ranks several blocks by created_at, newest first, keeping the two newest under max_segments', () => {
    const blocks = [10, 40, 20, 30, 5].map((t, i) => block(`b${i}`, 'memory', 'x', 1, { created_at: t }));
    const r = ok(tiered(100, blocks, { max_segments: 2, prefer_recency: true }));
    expect(r.included).toEqual(['b1', 'b3']);
    expect(r.omissions.map((o) => o.block_id)).toEqual(['b2', 'b0', 'b4']);
  });

  it('renders by -priority within a source when preferences are on', () => {
    const r = ok(
      tiered(
        100,
        [
          block('a', 'memory', 'x', 1),
          block('c', 'memory', 'x', 3),
          block('b', 'memory', 'x', 2),
          block('d', 'coverage', 'x', 0),
          block('e', 'memory', 'x', 5),
          block('f', 'memory', 'x', 0),
          block('g', 'memory', 'x', 2, { created_at: 9 }),
        ],
        { prefer_recency: true },
      ),
    );
    // g is newer than b, but rendering ignores the preferences: b before g by block_id.
    expect(r.included).toEqual(['d', 'e', 'c', 'b', 'g', 'a', 'f']);
  });

  it('orders ids with high units by code points when preferences are on', () => {
    const r = ok(tiered(3, [block('b\u{1F600}', 'coverage', 'x', 1), block('b\uFF5E', 'coverage', 'y', 1)], { prefer_recency: true }));
    expect(r.included).toEqual(['b\uFF5E']);
  });

  it('applies the preferences to max_segments too', () => {
    const r = ok(tiered(100, pair({ confidence: 0.5 }, { confidence: 0.9 }), { max_segments: 1, prefer_high_confidence: true }));
    expect(r.included).toEqual(['b']);
    expect(r.omissions).toEqual([{ block_id: 'a', reason: 'max_segments' }]);
  });
});

describe('lifecycle', () => {
  it('omits a superseded block by default and includes it, with a warning, when include_superseded is true', () => {
    const blocks = [block('s', 'memory', 'old', 1, { status: 'superseded' })];
    expect(ok(tiered(10, blocks)).omissions).toEqual([{ block_id: 's', reason: 'superseded' }]);
    const r = ok(tiered(10, blocks, { include_superseded: true }));
    expect(r.included).toEqual(['s']);
    expect(warningPairs(r.warnings)).toEqual([['superseded_memory_included', 's']]);
  });

  it('includes a disputed block by default, with a warning, and omits it when include_disputed is false', () => {
    const blocks = [block('d', 'memory', 'maybe', 1, { status: 'disputed' })];
    const r = ok(tiered(10, blocks));
    expect(r.included).toEqual(['d']);
    expect(warningPairs(r.warnings)).toEqual([['disputed_memory_included', 'd']]);
    expect(ok(tiered(10, blocks, { include_disputed: false })).omissions).toEqual([{ block_id: 'd', reason: 'disputed' }]);
  });

  it('never omits a stale or active block for its status, and warns for stale', () => {
    const r = ok(
      tiered(10, [block('st', 'memory', 'x', 1, { status: 'stale' }), block('ac', 'memory', 'x', 1, { status: 'active' })], {
        include_disputed: false,
        include_superseded: false,
      }),
    );
    expect(r.included).toEqual(['ac', 'st']);
    expect(warningPairs(r.warnings)).toEqual([['stale_consolidation', 'st']]);
  });

  it('runs after the exclude pass, in input order across both statuses', () => {
    const r = ok(
      tiered(
        10,
        [
          block('s1', 'memory', 'x', 1, { status: 'superseded' }),
          block('x', 'memory', 'x', 1, { status: 'superseded' }),
          block('d1', 'memory', 'x', 1, { status: 'disputed' }),
          block('e', 'memory', 'x', 1, { ...expired, status: 'superseded' }),
          block('s2', 'memory', 'x', 1, { status: 'superseded' }),
        ],
        { exclude: ['x'], include_disputed: false },
      ),
    );
    expect(r.omissions).toEqual([
      { block_id: 'e', reason: 'expired' },
      { block_id: 'x', reason: 'excluded' },
      { block_id: 's1', reason: 'superseded' },
      { block_id: 'd1', reason: 'disputed' },
      { block_id: 's2', reason: 'superseded' },
    ]);
  });

  it('gives lifecycle warnings in rendered order', () => {
    const r = ok(tiered(10, [block('a', 'memory', 'x', 1, { status: 'disputed' }), block('b', 'coverage', 'x', 1, { status: 'stale' })]));
    expect(warningPairs(r.warnings)).toEqual([
      ['stale_consolidation', 'b'],
      ['disputed_memory_included', 'a'],
    ]);
  });
});

describe('working_context', () => {
  it('describes each included block as a segment: id, source, tier, tokens, score and reason', () => {
    const r = ok(tiered(100, [block('m', 'memory', cost(3), 2.5), block('k', 'waf_info', cost(2), -1)]));
    expect(r.segments).toEqual([
      { block_id: 'm', source: 'memory', tier: 'longterm', tokens: 3, score: 2.5, reason: 'tier' },
      { block_id: 'k', source: 'waf_info', tier: 'knowledge', tokens: 2, score: -1, reason: 'tier' },
    ]);
  });

  it('sets generated_at to the request now, fractional or not', () => {
    expect(ok({ now: 1700000000.25, budget: 10, blocks: [] }).generated_at).toBe(1700000000.25);
  });

  it('is not truncated, and warns of nothing, when every block fits', () => {
    const r = ok(tiered(100, [block('a', 'memory', 'x')]));
    expect(r.truncated).toBe(false);
    expect(r.warnings).toEqual([]);
  });

  it('is not truncated by expired, excluded or lifecycle omissions', () => {
    const r = ok(
      tiered(
        100,
        [block('a', 'memory', 'x'), block('e', 'memory', 'x', 1, expired), block('x', 'memory', 'x'), block('s', 'memory', 'x', 1, { status: 'superseded' })],
        { exclude: ['x'] },
      ),
    );
    expect(r.omissions.length).toBe(3);
    expect(r.truncated).toBe(false);
    expect(r.warnings).toEqual([]);
  });

  it('is truncated, with a truncated warning, when a block is omitted for budget', () => {
    const r = ok(tiered(10, [block('a', 'memory', 'x'), block('big', 'memory', cost(50))]));
    expect(r.truncated).toBe(true);
    expect(warningPairs(r.warnings)).toEqual([['truncated', undefined]]);
  });

  it('warns empty_context, then truncated, when nothing fits', () => {
    const r = ok(tiered(5, [block('big', 'memory', cost(50))]));
    expect(r.included).toEqual([]);
    expect(warningPairs(r.warnings)).toEqual([
      ['empty_context', undefined],
      ['truncated', undefined],
    ]);
  });

  it('warns empty_context alone for a request without blocks', () => {
    expect(warningPairs(ok(tiered(5, [])).warnings)).toEqual([['empty_context', undefined]]);
  });

  it('orders warnings: truncated, required ids in must_include order, then lifecycle in rendered order', () => {
    const r = ok(
      tiered(
        20,
        [block('d', 'memory', 'x', 1, { status: 'disputed' }), block('st', 'coverage', 'x', 1, { status: 'stale' }), block('big', 'memory', cost(100))],
        { must_include: ['ghost', 'big'] },
      ),
    );
    expect(warningPairs(r.warnings)).toEqual([
      ['truncated', undefined],
      ['required_ref_omitted', 'ghost'],
      ['required_ref_omitted', 'big'],
      ['stale_consolidation', 'st'],
      ['disputed_memory_included', 'd'],
    ]);
    for (const w of r.warnings ?? []) expect(['eventual_consistency', 'partial_hydration']).not.toContain(w.code);
  });
});

describe('the capabilities an implementation declares', () => {
  const req = tiered(10, [block('p', 'memory', 'pinned', 0, pinned), block('a', 'coverage', 'x', 9), block('s', 'memory', 'x', 1, { status: 'superseded' })]);
  const CORE = ['context', 'estimated_tokens', 'included', 'omissions', 'total_budget'];

  it('emits only the five core members when no capability is declared', () => {
    expect(Object.keys(ok(req, [])).sort()).toEqual(CORE);
  });

  it('emits only the core members for pinned, constraints and lifecycle, which add no member', () => {
    expect(Object.keys(ok(req, ['pinned', 'constraints', 'lifecycle'])).sort()).toEqual(CORE);
  });

  it('adds exactly segments, truncated, warnings and generated_at for working_context', () => {
    expect(Object.keys(ok(req, ['working_context'])).sort()).toEqual([...CORE, 'generated_at', 'segments', 'truncated', 'warnings'].sort());
  });

  it('selects the same blocks whichever members are emitted', () => {
    const core = ok(req, []);
    const full = ok(req);
    expect(core.included).toEqual(['p', 'a']);
    expect({ ...full, segments: undefined, truncated: undefined, warnings: undefined, generated_at: undefined }).toEqual({
      ...core,
      segments: undefined,
      truncated: undefined,
      warnings: undefined,
      generated_at: undefined,
    });
  });
});
