/**
 * Shared helpers of the reference's unit tests. Every answer they return has
 * been validated against the protocol's schemas for its profile and the
 * capabilities asked for, so no test can pass on a malformed answer.
 */
import { expect } from 'vitest';
import { validators, formatErrors } from '../../protocol/schemas.js';
import { assemble, DEFAULT_CAPABILITIES, isErrorAnswer } from '../../reference/index.js';
import type { Block, Capability, ErrorAnswer, Request, Result } from '../../reference/index.js';

export const NOW = 1_700_000_000;

/** A block with only the required members unless `extra` adds more; use `cost` for a content of a given cost. */
export function block(id: string, source: string, content: string, priority = 1, extra: Partial<Block> = {}): Block {
  return { block_id: id, source, content, priority, ...extra };
}

/** Content of exactly `tokens` estimated tokens (4 code points each). */
export const cost = (tokens: number, ch = 'x'): string => ch.repeat(tokens * 4);

function checkSchema(req: unknown, answer: Result | ErrorAnswer, caps: readonly Capability[]): void {
  if (isErrorAnswer(answer)) {
    const v = validators.error();
    expect(v(answer), formatErrors(v.errors).join('\n')).toBe(true);
    return;
  }
  const profile = (req as { profile?: string }).profile ?? 'tiered';
  const v = validators.result(profile, caps);
  expect(v(answer), formatErrors(v.errors).join('\n')).toBe(true);
}

/** Assemble and return any answer, checked against the schemas. */
export function answer(req: unknown, caps: readonly Capability[] = DEFAULT_CAPABILITIES): Result | ErrorAnswer {
  const a = assemble(req, { capabilities: caps });
  checkSchema(req, a, caps);
  return a;
}

/** Assemble a request that must succeed. */
export function ok(req: Request, caps: readonly Capability[] = DEFAULT_CAPABILITIES): Result {
  const a = answer(req, caps);
  if (isErrorAnswer(a)) throw new Error(`unexpected error answer: ${a.error.message}`);
  return a;
}

/** Assemble a request that must be refused; returns the error. */
export function refused(req: unknown, caps: readonly Capability[] = DEFAULT_CAPABILITIES): ErrorAnswer['error'] {
  const a = answer(req, caps);
  if (!isErrorAnswer(a)) throw new Error(`expected an error answer, got ${JSON.stringify(a).slice(0, 200)}`);
  return a.error;
}

/** A tiered request at NOW. */
export const tiered = (budget: number, blocks: Block[], constraints?: Request['constraints']): Request =>
  constraints === undefined ? { now: NOW, budget, blocks } : { now: NOW, budget, blocks, constraints };

export const TIER_BUDGET = 'tier budget exhausted; overflow pool exhausted';
