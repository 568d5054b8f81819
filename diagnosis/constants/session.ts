/**
 * One probe conversation with an implementation: tiny `tiered` requests, each
 * counted, each answer reduced to what the probe may trust: which blocks were
 * admitted whole (in `included` and with their content intact in `context`),
 * and the estimate. An error, timeout or crash is a ProbeError: the question
 * it was asking stays undetermined.
 */
import type { Block } from '../../protocol/assembly.js';
import type { Implementation, Outcome } from '../../protocol/types.js';

/** The probe only ever sends the core members of a block. */
export type ProbeBlock = Pick<Block, 'block_id' | 'source' | 'content' | 'priority' | 'created_at' | 'ttl_seconds'>;

export interface Seen {
  /** Ids admitted whole. */
  admitted: string[];
  estimated_tokens: number;
}

export class ProbeError extends Error {}

/** One request of the probe and what came back: the readings the catalogue cross-check reads (cross-check.ts). */
export interface Exchange {
  request: unknown;
  outcome: Outcome;
}

export class ProbeSession {
  requests = 0;
  readonly exchanges: Exchange[] = [];

  constructor(
    private readonly impl: Implementation,
    private readonly timeoutMs: number,
  ) {}

  async ask(budget: number, blocks: ProbeBlock[], now = 0): Promise<Seen> {
    this.requests++;
    const request = { profile: 'tiered', now, budget, blocks };
    const outcome = await this.impl.assemble(request, { timeoutMs: this.timeoutMs });
    this.exchanges.push({ request, outcome });
    if (outcome.kind !== 'result') {
      const detail = outcome.kind === 'error' ? `the error ${String(outcome.code)}: ${String(outcome.message)}` : `${outcome.kind}: ${outcome.message}`;
      throw new ProbeError(`request ${JSON.stringify(request).slice(0, 200)} got ${detail}`);
    }
    const v = outcome.value as { included?: unknown; context?: unknown; estimated_tokens?: unknown } | null;
    if (!v || !Array.isArray(v.included) || typeof v.context !== 'string' || typeof v.estimated_tokens !== 'number') {
      throw new ProbeError(`request ${JSON.stringify(request).slice(0, 200)} got an answer without included, context and estimated_tokens`);
    }
    const context = v.context;
    const included = new Set(v.included.filter((x): x is string => typeof x === 'string'));
    // A block cut to fit is not admitted: its content must be in context whole.
    const admitted = blocks.filter((b) => included.has(b.block_id) && context.includes(b.content)).map((b) => b.block_id);
    return { admitted, estimated_tokens: v.estimated_tokens };
  }
}
