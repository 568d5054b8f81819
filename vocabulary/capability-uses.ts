/**
 * What in a request uses which capability, as SPEC section 8 words it: a
 * `constraints` member, a block status other than `active`, a pinned block
 * (`pinned: false`, `status: active` and a block's `confidence` use none).
 * One reading for the case loader (a case must list what its request uses),
 * the counterexample writer (a saved case lists it) and the replay (a
 * recorded request is skipped on an implementation without it). Whether the
 * request is valid, and its profile (in ranked none is used, RANK-7), the
 * callers decide.
 */
import { CAPABILITIES } from '../protocol/assembly.js';
import type { Capability } from '../protocol/assembly.js';

/** Each capability the request's members use, in CAPABILITIES order, with the first member that uses it. */
export function capabilityUses(request: unknown): Map<Capability, string> {
  const found = new Map<Capability, string>();
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return found;
  const r = request as { blocks?: unknown; constraints?: unknown };
  if (r.constraints !== undefined) found.set('constraints', 'constraints');
  if (Array.isArray(r.blocks)) {
    for (const b of r.blocks as unknown[]) {
      if (typeof b !== 'object' || b === null) continue;
      const { pinned, status } = b as { pinned?: unknown; status?: unknown };
      if (pinned === true && !found.has('pinned')) found.set('pinned', 'a pinned block');
      if (status !== undefined && status !== 'active' && !found.has('lifecycle')) found.set('lifecycle', `status ${String(status)}`);
    }
  }
  return new Map(CAPABILITIES.filter((c) => found.has(c)).map((c) => [c, found.get(c)!]));
}
