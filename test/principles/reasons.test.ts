/**
 * Omission reasons held to the request (SPEC ANY-4) and the declared expiry
 * boundary (DES-11), on answers worked out by hand: a reason whose class is
 * false of its block fails by name, with the request's numbers; a true one,
 * under either boundary, breaks nothing.
 */
import { describe, expect, it } from 'vitest';
import { principleFindings } from '../../judging/principles/checks.js';
import type { PrincipleRequest } from '../../judging/principles/finding.js';
import { designOf } from '../../judging/principles/design.js';
import type { Result } from '../../protocol/assembly.js';

const SPEC = designOf(undefined);
const INCLUSIVE = designOf({ expiry: 'inclusive' });

// Each content is 40 code points: 10 tokens under the specification's estimator.
const text = (tag: string): string => `${tag} `.padEnd(40, 'x');
const req: PrincipleRequest = {
  now: 1000,
  budget: 20,
  blocks: [
    { block_id: 'edge', source: 'memory', content: text('edge'), created_at: 990, ttl_seconds: 10, priority: 3 },
    { block_id: 'old', source: 'memory', content: text('old'), created_at: 989, ttl_seconds: 10, priority: 2 },
    { block_id: 'plain', source: 'memory', content: text('plain'), priority: 1 },
  ],
};
const render = (ids: string[], request = req): string =>
  ids.map((id) => `[memory · ${id}]\n${request.blocks.find((b) => b.block_id === id)!.content}`).join('\n\n');

function answer(included: string[], omissions: [string, string][], request = req): Result {
  return {
    context: render(included, request),
    included,
    estimated_tokens: 10 * included.length,
    total_budget: request.budget,
    omissions: omissions.map(([block_id, reason]) => ({ block_id, reason })),
  };
}

const findings = (r: Result, design = SPEC, request = req) => principleFindings(request, r, design, []);

describe('omission reasons held to the truth (ANY-4)', () => {
  it('a true account breaks nothing: the block at the boundary kept, the one past it expired', () => {
    expect(findings(answer(['edge', 'plain'], [['old', 'expired']]))).toEqual([]);
  });

  it('a live block omitted as expired fails, naming the numbers that make it live', () => {
    const f = findings(
      answer(
        ['edge'],
        [
          ['old', 'expired'],
          ['plain', 'expired'],
        ],
      ),
    );
    expect(f.map((x) => x.id)).toEqual(['ANY-4']);
    expect(f[0]!.message).toBe('block "plain" is omitted as expired ("expired"), but it is live: it has no ttl_seconds, so it never expires');
  });

  it('the block at now == created_at + ttl_seconds called expired fails under EXP-1 (exclusive)', () => {
    const f = findings(
      answer(
        ['plain'],
        [
          ['edge', 'expired'],
          ['old', 'expired'],
        ],
      ),
    );
    expect(f.map((x) => x.id)).toEqual(['ANY-4']);
    expect(f[0]!.message).toBe('block "edge" is omitted as expired ("expired"), but it is live: now 1000 <= 990 + 10');
  });

  it('under a declared inclusive boundary the same answer is true, and keeping the block fails ANY-5', () => {
    expect(
      findings(
        answer(
          ['plain'],
          [
            ['edge', 'expired'],
            ['old', 'expired'],
          ],
        ),
        INCLUSIVE,
      ),
    ).toEqual([]);
    const kept = findings(answer(['edge', 'plain'], [['old', 'expired']]), INCLUSIVE);
    expect(kept.map((x) => x.id)).toEqual(['ANY-5']);
    expect(kept[0]!.message).toContain('now 1000 >= 990 + 10, the declared boundary being inclusive');
  });

  it('an expired block omitted for the budget fails: its reason is expired', () => {
    const f = findings(answer(['edge', 'plain'], [['old', 'budget_exhausted']]));
    expect(f.map((x) => x.id)).toEqual(['ANY-4']);
    expect(f[0]!.message).toBe('block "old" is omitted for the budget ("budget_exhausted"), but it is expired (now 1000 > 989 + 10), which is its reason');
  });

  it('a filter the request did not ask for, or a status the block does not have, fails', () => {
    const f = findings(
      answer(
        ['edge'],
        [
          ['old', 'expired'],
          ['plain', 'excluded'],
        ],
      ),
    );
    expect(f.map((x) => x.message)).toEqual(['block "plain" is omitted as excluded ("excluded"), but the request’s exclude does not name it']);
    const asked = { ...req, constraints: { exclude: ['plain'] } };
    expect(
      findings(
        answer(
          ['edge'],
          [
            ['old', 'expired'],
            ['plain', 'excluded'],
          ],
          asked,
        ),
        SPEC,
        asked,
      ),
    ).toEqual([]);
    const status = findings(
      answer(
        ['edge'],
        [
          ['old', 'expired'],
          ['plain', 'superseded'],
        ],
      ),
    );
    expect(status.map((x) => x.message)).toEqual(['block "plain" is omitted as superseded ("superseded"), but it carries no status']);
  });

  it('a duplicate needs another block it duplicates, kept or not (duplicates may go before the budget is filled)', () => {
    const alone = { ...req, blocks: [req.blocks[2]!] };
    const f = findings(answer([], [['plain', 'duplicate']], alone), SPEC, alone);
    expect(f.map((x) => x.message)).toEqual(['block "plain" is omitted as a duplicate ("duplicate"), but the request holds no other block it could duplicate']);
    expect(
      findings(
        answer(
          ['edge'],
          [
            ['old', 'expired'],
            ['plain', 'duplicate'],
          ],
        ),
      ),
    ).toEqual([]);
    const tight = { ...req, budget: 5 };
    expect(
      findings(
        answer(
          [],
          [
            ['edge', 'budget'],
            ['old', 'expired'],
            ['plain', 'duplicate'],
          ],
          tight,
        ),
        SPEC,
        tight,
      ),
    ).toEqual([]);
  });

  it('a score floor is contradicted by an unpinned block kept at or below it', () => {
    const f = findings(
      answer(
        ['plain'],
        [
          ['edge', 'score_floor'],
          ['old', 'expired'],
        ],
      ),
    );
    expect(f.map((x) => x.message)).toEqual([
      'block "edge" is omitted as below the score floor ("score_floor"), but "plain" is included, unpinned, at priority 1 (this block\'s is 3)',
    ]);
    expect(
      findings(
        answer(
          ['edge'],
          [
            ['old', 'expired'],
            ['plain', 'score_floor'],
          ],
        ),
      ),
    ).toEqual([]);
  });

  it('a design that calls every unpinned block expired fails wherever a live block is left out', () => {
    const all = findings(
      answer(
        [],
        [
          ['edge', 'expired'],
          ['old', 'expired'],
          ['plain', 'expired'],
        ],
      ),
    );
    expect(all.filter((x) => x.id === 'ANY-4').map((x) => (x.actual as { block_id: string }).block_id)).toEqual(['edge', 'plain']);
  });
});
