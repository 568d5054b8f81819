/**
 * Which requirements a differential failure points at. The property as a
 * whole cites every requirement it checks; a failure cites only those behind
 * the members that differ, narrowed to what the request used (no PIN-* for a
 * request without a pinned block), so one ranked expiry bug does not turn the
 * whole coverage matrix red.
 */
import { profileOf } from './answers.js';

type Uses = { pinned: boolean; constraints: boolean; lifecycle: boolean; expiry: boolean };

function usesOf(request: unknown): Uses {
  const r = request as { blocks?: unknown; constraints?: unknown } | null;
  const blocks = Array.isArray(r?.blocks) ? (r.blocks as { pinned?: unknown; status?: unknown; ttl_seconds?: unknown }[]) : [];
  return {
    pinned: blocks.some((b) => b?.pinned === true),
    constraints: r?.constraints !== undefined,
    lifecycle: blocks.some((b) => b?.status !== undefined && b.status !== 'active'),
    expiry: blocks.some((b) => typeof b?.ttl_seconds === 'number' && b.ttl_seconds > 0),
  };
}

/** What decides which blocks are in, for this request. */
function selection(ranked: boolean, u: Uses): string[] {
  const out = ranked
    ? ['RANK-1', 'RANK-4', 'NUM-2', 'NUM-1']
    : ['TIER-1', 'TIER-2', 'TIER-3', 'TIER-4', 'TIER-6', 'TIER-7', 'NUM-1', 'NUM-2', 'NUM-3', 'NUM-4', 'NUM-5'];
  if (u.expiry) out.push('EXP-1', 'EXP-2', ...(ranked ? ['RANK-6'] : []));
  if (!ranked && u.pinned) out.push('PIN-1', 'PIN-3', 'PIN-5');
  if (!ranked && u.constraints) out.push('CON-1', 'CON-2', 'CON-3', 'CON-5', 'CON-6', 'CON-7');
  if (!ranked && u.lifecycle) out.push('LIF-1', 'LIF-2', 'LIF-3');
  return out;
}

const sameSet = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b) && a.length === b.length && [...a].map(String).sort().join('\u0000') === [...b].map(String).sort().join('\u0000');

/**
 * The requirements behind the differing `members` of two comparable views
 * (answers.ts `comparableView`): `expected` from the reference, `actual` from
 * the implementation. `capabilities`: the implementation's, for the
 * requirements a capability adds (omission_markers: a context holds markers).
 */
export function requirementsBehind(
  members: readonly string[],
  request: unknown,
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  capabilities: readonly string[] = [],
): string[] {
  const ranked = profileOf(request) === 'ranked';
  const u = usesOf(request);
  const out = new Set<string>();
  const add = (...ids: string[]): void => {
    for (const id of ids) out.add(id);
  };
  // A refusal on one side makes every member differ; the refusal is the failure.
  for (const m of members.includes('error') ? ['error'] : members) {
    switch (m) {
      case 'error':
        // One side refused: validation, or the pinned overflow rule.
        if (expected.error === 'pinned_overflow' || actual.error === 'pinned_overflow') add('PIN-2', 'ERR-1', 'ERR-2');
        if (expected.error === 'invalid_request' || actual.error === 'invalid_request')
          add('REQ-1', 'VAL-1', 'VAL-2', 'VAL-3', 'VAL-4', 'VAL-5', 'VAL-6', 'VAL-7', 'VAL-8', ...(ranked ? ['VAL-9'] : []), 'ERR-1');
        if (expected.error === undefined || actual.error === undefined) add('ERR-2');
        break;
      case 'included':
        // The same blocks in another order is rendering; other blocks is selection.
        if (sameSet(expected.included, actual.included)) add(...(ranked ? ['RANK-1', 'RANK-6'] : ['REN-1', ...(u.pinned ? ['PIN-4'] : [])]));
        else add(...selection(ranked, u), 'RES-2');
        break;
      case 'context':
        add(...(ranked ? ['RANK-2', 'RANK-3', 'RANK-5'] : ['REN-1', 'REN-2', 'REN-3', 'TIER-5', ...(u.pinned ? ['PIN-4'] : [])]), 'REN-4');
        // With markers the context also shows each omission for room, where it would have stood.
        if (!ranked && capabilities.includes('omission_markers')) add('MRK-1', 'MRK-2', 'MRK-3');
        break;
      case 'estimated_tokens':
        add('NUM-1', 'NUM-2', ...(ranked ? ['RANK-5'] : ['TIER-9']));
        break;
      case 'total_budget':
        add('RES-3');
        break;
      case 'omissions':
        add('RES-2', 'RES-4', 'CLS-1', ...(ranked ? ['RANK-4', 'RANK-6'] : ['TIER-8', ...(u.expiry ? ['EXP-2'] : [])]));
        if (
          !sameSet(
            (expected.omissions as unknown[] | undefined)?.map((o) => JSON.stringify(o)),
            (actual.omissions as unknown[] | undefined)?.map((o) => JSON.stringify(o)),
          )
        )
          add(...selection(ranked, u));
        break;
      case 'segments':
        add('WC-2');
        break;
      case 'truncated':
        add('WC-3');
        break;
      case 'warnings':
        add('WC-4', ...(u.constraints ? ['CON-4'] : []), ...(u.lifecycle ? ['LIF-4'] : []));
        break;
      case 'generated_at':
        add('WC-5');
        break;
      default:
        add('RES-1');
    }
  }
  return [...out];
}
