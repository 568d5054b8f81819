/**
 * The requests the contract run sends: directed scenarios that put every
 * clause of SPEC section 16 to the test on a service that retrieves by the
 * task (every ingested text carries the run marker the task names), then
 * random requests from a fixed seed.
 */
import fc from 'fast-check';
import type { Block, Request } from '../protocol/assembly.js';

export interface Scenario {
  name: string;
  request: Request;
  /** Sent as `budget.reservedTokens` (and added to `maxTokens`). */
  reservedTokens: number;
}

/** A text of exactly `chars` characters (ASCII, so 4 characters are one token by the kit's estimate). */
function text(tag: string, chars: number): string {
  const base = `${tag}: recalled note about the billing migration and its follow-ups. `;
  return base.repeat(Math.ceil(chars / base.length)).slice(0, chars);
}

function block(id: string, chars: number, priority: number, extra: Partial<Block> = {}): Block {
  return { block_id: id, source: 'memory', content: text(id, chars), priority, created_at: 1_700_000_000, ...extra };
}

const NOW = 1_700_000_100;

export const DIRECTED: readonly Scenario[] = [
  { name: 'empty scope', request: { now: NOW, budget: 50, blocks: [] }, reservedTokens: 5 },
  {
    name: 'everything fits',
    request: { now: NOW, budget: 200, blocks: [block('fit-a', 60, 3), block('fit-b', 48, 2), block('fit-c', 36, 1)] },
    reservedTokens: 20,
  },
  {
    // The first-ranked memory alone is four times the budget: a service that admits the first memory whole breaks MAPI-3.
    name: 'first-ranked memory larger than the whole budget',
    request: { now: NOW, budget: 25, blocks: [block('bud-big', 400, 5), block('bud-a', 40, 4), block('bud-b', 40, 3), block('bud-c', 40, 2)] },
    reservedTokens: 30,
  },
  {
    name: 'segment cap leaves memories out',
    request: {
      now: NOW,
      budget: 500,
      blocks: [block('cap-a', 24, 4), block('cap-b', 24, 3), block('cap-c', 24, 2), block('cap-d', 24, 1)],
      constraints: { max_segments: 2 },
    },
    reservedTokens: 0,
  },
  {
    name: 'required memory too large, and a required id with no memory',
    request: {
      now: NOW,
      budget: 20,
      blocks: [block('req-big', 120, 1), block('req-small', 24, 2)],
      constraints: { must_include: ['req-big', 'req-ghost'] },
    },
    reservedTokens: 4,
  },
  {
    name: 'required memory that fits',
    request: { now: NOW, budget: 100, blocks: [block('rq-a', 40, 1), block('rq-b', 40, 2)], constraints: { must_include: ['rq-a'] } },
    reservedTokens: 0,
  },
  {
    name: 'excluded memory',
    request: { now: NOW, budget: 200, blocks: [block('ex-a', 40, 5), block('ex-b', 40, 1)], constraints: { exclude: ['ex-a'] } },
    reservedTokens: 10,
  },
  {
    name: 'disputed and superseded memories included',
    request: {
      now: NOW,
      budget: 200,
      blocks: [block('lc-disputed', 40, 2, { status: 'disputed' }), block('lc-superseded', 40, 1, { status: 'superseded' }), block('lc-active', 40, 3)],
      constraints: { include_disputed: true, include_superseded: true },
    },
    reservedTokens: 0,
  },
  {
    name: 'disputed and superseded memories filtered out',
    request: {
      now: NOW,
      budget: 200,
      blocks: [block('lf-disputed', 40, 2, { status: 'disputed' }), block('lf-superseded', 40, 1, { status: 'superseded' }), block('lf-active', 40, 3)],
      constraints: { include_disputed: false },
    },
    reservedTokens: 0,
  },
  {
    // Each filter the other way round from the scenario before: a service that reads one filter for the other, or ignores one, shows it here.
    name: 'disputed filtered out, superseded included',
    request: {
      now: NOW,
      budget: 200,
      blocks: [block('lx-disputed', 40, 2, { status: 'disputed' }), block('lx-superseded', 40, 1, { status: 'superseded' }), block('lx-active', 40, 3)],
      constraints: { include_disputed: false, include_superseded: true },
    },
    reservedTokens: 0,
  },
  {
    // A required memory the filters keep out, too large for the budget besides: the service may include it or leave it out with
    // required_ref_omitted (SPEC section 16), and truncated is not judged false while a required ref is absent.
    name: 'required memory the filters keep out',
    request: {
      now: NOW,
      budget: 30,
      blocks: [block('rf-disputed', 200, 1, { status: 'disputed' }), block('rf-a', 40, 2)],
      constraints: { must_include: ['rf-disputed'], include_disputed: false },
    },
    reservedTokens: 0,
  },
];

const WORDS = ['invoice', 'refund', 'ERP', 'sync', 'addendum', 'café', 'naïve', '👍', 'escalate', 'ticket', '—', 'window'];

const blockArb = (i: number): fc.Arbitrary<Block> =>
  fc.record({
    block_id: fc.constant(`r-${i}`),
    source: fc.constantFrom('memory', 'episodes', 'knowledge'),
    content: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 30 }).map((w) => w.join(' ')),
    priority: fc.integer({ min: 0, max: 5 }),
    created_at: fc.integer({ min: 1_600_000_000, max: 1_700_000_000 }),
    status: fc.constantFrom('active', 'active', 'active', 'disputed', 'superseded') as fc.Arbitrary<Block['status']>,
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  });

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .integer({ min: 0, max: 8 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => blockArb(i))))
  .chain((blocks) => {
    const ids = blocks.map((b) => b.block_id);
    const someIds = ids.length ? fc.subarray([...ids, 'r-ghost']) : fc.constant([] as string[]);
    return fc.record({
      name: fc.constant('random'),
      reservedTokens: fc.integer({ min: 0, max: 40 }),
      request: fc.record({
        now: fc.constant(NOW),
        budget: fc.integer({ min: 0, max: 120 }),
        blocks: fc.constant(blocks),
        constraints: fc.record(
          {
            must_include: someIds,
            exclude: ids.length ? fc.subarray(ids, { maxLength: Math.min(2, ids.length) }) : fc.constant([] as string[]),
            max_segments: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
            include_disputed: fc.boolean(),
            include_superseded: fc.boolean(),
            prefer_recency: fc.boolean(),
            prefer_high_confidence: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
      }),
    });
  });

/** `runs` random scenarios, the same ones for the same seed. */
export function randomScenarios(seed: number, runs: number): Scenario[] {
  if (runs <= 0) return [];
  return fc.sample(scenarioArb, { seed, numRuns: runs }).map((s, i) => ({ ...s, name: `random #${i + 1} (seed ${seed})` }));
}
