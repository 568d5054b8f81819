/**
 * The demonstration artifact: one block set assembled at a large and a small
 * budget, in the layout of the lesson's committed `context-demo.json`, so the
 * two can be compared byte for byte.
 */
import { assemble, estimateTokens, isErrorAnswer, tierOf } from '../reference/index.js';
import type { Block, ErrorAnswer, Result } from '../protocol/assembly.js';

export const DEMO_SCHEMA = 'context-lesson-demo/v1';

export interface DemoInput {
  now: number;
  budgets: [number, number];
  blocks: Block[];
}

export interface DemoOutput {
  blocks: { block_id: string; priority: number; source: string; tier: string; token_estimate: number; ttl_seconds: number }[];
  large_budget: Result;
  schema: string;
  small_budget: Result;
}

export class DemoError extends Error {}

/** Core members only: the artifact predates the capabilities. */
function at(input: DemoInput, budget: number, which: string): Result {
  const r: Result | ErrorAnswer = assemble({ now: input.now, budget, blocks: input.blocks }, { capabilities: [] });
  if (isErrorAnswer(r)) throw new DemoError(`${which} (${budget}): ${r.error.message}`);
  return r;
}

export function buildDemo(input: DemoInput): DemoOutput {
  if (!Array.isArray(input?.budgets) || input.budgets.length !== 2) throw new DemoError('"budgets" must be an array of two budgets');
  const [large, small] = input.budgets;
  // Assembling first validates the blocks, so the listing reads only valid ones.
  const largeBudget = at(input, large, 'large budget');
  const smallBudget = at(input, small, 'small budget');
  return {
    blocks: input.blocks.map((b) => ({
      block_id: b.block_id,
      priority: b.priority,
      source: b.source,
      tier: tierOf(b.source),
      token_estimate: estimateTokens(b.content),
      ttl_seconds: b.ttl_seconds ?? 0,
    })),
    large_budget: largeBudget,
    schema: DEMO_SCHEMA,
    small_budget: smallBudget,
  };
}
