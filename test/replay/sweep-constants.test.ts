/**
 * The sweep's default range under declared constants (SPEC section 17): the
 * budget that admits every block takes the declared chars per token and tier
 * shares, so a sweep of a team's tuned build reaches the budget from which
 * the reference includes everything, instead of stopping short of it (at 3
 * characters per token a block costs a third more than NUM-2's estimate).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from '../../judging/properties/arbitraries.js';
import { reasonClass } from '../../vocabulary/reason-classes.js';
import { budgetAdmittingAll } from '../../traffic/sweep.js';
import type { Report } from '../../protocol/types.js';
import type { DeclaredConstants, Result } from '../../protocol/assembly.js';
import { assemble, CAPABILITIES, isErrorAnswer } from '../../reference/index.js';
import { TUNED } from '../fixtures/declared/constants.js';
import { cliWith, ROOT } from '../cli.js';
import { fixtureCommand } from '../fixture-command.js';

const tmp = mkdtempSync(join(tmpdir(), 'ctxconform-sweep-constants-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DECLARATIONS: DeclaredConstants[] = [
  TUNED,
  { chars_per_token: 3 },
  { chars_per_token: 1 },
  // Shares summing to less than 100, one of them 0: the tier budgets leave more undistributed.
  { tier_fractions: { working: 30, episodic: 10, longterm: 0, knowledge: 20 } },
  { chars_per_token: 2, tier_fractions: { working: 5, episodic: 5, longterm: 5, knowledge: 5 } },
];

describe('the budget that admits everything, under declared constants', () => {
  it.each(DECLARATIONS.map((c) => [JSON.stringify(c), c] as const))(
    '%s: no block omitted for budget, no pinned overflow, on 500 random requests',
    (_, constants) => {
      fc.assert(
        fc.property(request({ profiles: ['tiered'], capabilities: [...CAPABILITIES], constants }), (r) => {
          const a = assemble({ ...r, budget: budgetAdmittingAll(r, constants) }, { constants });
          expect(isErrorAnswer(a)).toBe(false);
          expect((a as Result).omissions.filter((o) => reasonClass(o.reason) === 'budget')).toEqual([]);
        }),
        { numRuns: 500, seed: 17 },
      );
    },
  );

  it('the estimate of NUM-2 falls short at 3 characters per token: the bound is not the undeclared one', () => {
    const r = {
      now: 1,
      budget: 0,
      blocks: Array.from({ length: 8 }, (_, i) => ({ block_id: `b${i}`, source: 'memory', content: 'x'.repeat(60), priority: 1 })),
    };
    expect(budgetAdmittingAll(r, { chars_per_token: 3 })).toBeGreaterThan(budgetAdmittingAll(r));
    const short = assemble({ ...r, budget: budgetAdmittingAll(r) }, { constants: { chars_per_token: 3 } }) as Result;
    expect(short.omissions.length).toBeGreaterThan(0);
  });
});

describe('ctxconform sweep of a tuned build (declared constants, over stdio)', () => {
  it('sweeps up to a budget at which the reference includes every block', () => {
    const blocks = Array.from({ length: 8 }, (_, i) => ({
      block_id: `b${i}`,
      source: ['memory', 'knowledge', 'notes', 'episodes'][i % 4],
      content: `${'y'.repeat(40 + 7 * i)}`,
      priority: i % 3,
    }));
    writeFileSync(join(tmp, 'r.jsonl'), JSON.stringify({ now: 1, budget: 0, blocks }) + '\n');
    const stdio = fixtureCommand(join(ROOT, 'test/fixtures/replay/module-stdio.ts'), join(ROOT, 'test/fixtures/declared/tuned.ts'));
    const r = cliWith({}, 'sweep', '--request', join(tmp, 'r.jsonl'), '--stdio', stdio, '--json', join(tmp, 'sweep.json'));
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const s = (JSON.parse(readFileSync(join(tmp, 'sweep.json'), 'utf8')) as Report).sweep!;
    // Every block is in at the last budget swept, and the sweep says from where.
    for (const row of s.blocks) expect(row.reference.at(-1)?.[1], row.block_id).toBe(s.budgets.to);
    expect(s.admits_all_from).not.toBeNull();
    expect(r.stdout).toMatch(new RegExp(`the reference includes all it can from ${s.admits_all_from}`));
  });
});
