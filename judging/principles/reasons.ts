/**
 * Every omission's reason is held to the request (SPEC ANY-4): a class names
 * why a block is left out, and a class that is false of the block is a false
 * account of the drop. Without it a design that calls every live block
 * "expired" passes wherever a drop is legal, and the boundary of expiry is
 * never put to the test. Only what is true of every design is held: a block
 * the design calls expired is expired under its declared boundary (DES-11),
 * one left out for the budget is live, a filter the request asks for names
 * the block, a floor is not contradicted by a block kept below it.
 */
import type { Result } from '../../protocol/assembly.js';
import { anyReasonClass } from '../../vocabulary/reason-classes.js';
import { type Design, type Expiring, expiredUnder } from './design.js';
import type { Finding, PrincipleBlock, PrincipleRequest } from './finding.js';
import { quote } from './finding.js';
import { groupOf } from './groups.js';

/** Why a block is expired, or is not, at `now` under the boundary, in the numbers of the request. */
export function expiryWords(now: number, b: Expiring, expiry: Design['expiry']): string {
  const ttl = b.ttl_seconds ?? 0;
  if (ttl <= 0) return 'it has no ttl_seconds, so it never expires';
  const end = `${b.created_at ?? 0} + ${ttl}`;
  // The boundary as the design reads it (DES-11): the one rule, said in the request's numbers.
  const expired = expiredUnder(expiry)(now, b);
  const op = expired ? (expiry === 'inclusive' ? '>=' : '>') : expiry === 'inclusive' ? '<' : '<=';
  return `now ${now} ${op} ${end}${expiry === 'inclusive' ? ', the declared boundary being inclusive' : ''}`;
}

/** Whether a block of `b`'s declared group (DES-9) is expired. */
function expiredWithGroup(b: PrincipleBlock, request: PrincipleRequest, design: Design): boolean {
  const g = groupOf(b, design.groups);
  return g !== undefined && request.blocks.some((o) => groupOf(o, design.groups) === g && design.expired(request.now, o));
}

const priorityOf = (b: PrincipleBlock): number | undefined => (typeof b['priority'] === 'number' ? (b['priority'] as number) : undefined);

/** What kind of false reason a finding is, for the likely cause: a live block at the boundary called expired says an undeclared inclusive boundary. */
export type FalseReason = 'boundary' | 'expired' | 'budget' | 'other';

function kindOf(cls: string, b: PrincipleBlock, now: number): FalseReason {
  if (cls === 'expired') return (b.ttl_seconds ?? 0) > 0 && now === (b.created_at ?? 0) + (b.ttl_seconds ?? 0) ? 'boundary' : 'expired';
  return cls === 'budget' ? 'budget' : 'other';
}

/** What is false of block `b` omitted with a reason of class `cls`, or undefined when the class may be true of it. */
function falseOf(
  cls: string,
  b: PrincipleBlock,
  request: PrincipleRequest,
  answer: Result,
  design: Design,
  byId: ReadonlyMap<string, PrincipleBlock>,
): string | undefined {
  const expired = design.expired(request.now, b);
  switch (cls) {
    case 'expired':
      // An expired block takes its group out with it (DES-9): the live blocks of that group go for its reason.
      if (expired || expiredWithGroup(b, request, design)) return undefined;
      return `it is live: ${expiryWords(request.now, b, design.expiry)}`;
    case 'budget':
      return expired ? `it is expired (${expiryWords(request.now, b, design.expiry)}), which is its reason` : undefined;
    case 'excluded':
      return (request.constraints?.exclude ?? []).includes(b.block_id) ? undefined : 'the request’s exclude does not name it';
    case 'superseded':
    case 'disputed':
      return b.status === cls ? undefined : b.status === undefined ? 'it carries no status' : `its status is ${quote(b.status)}`;
    case 'duplicate':
      // A design may remove duplicates before it fits the budget, so the block it kept may itself be left out: another block is all it owes.
      return request.blocks.some((o) => o !== b) ? undefined : 'the request holds no other block it could duplicate';
    case 'score_floor': {
      const p = priorityOf(b);
      if (p === undefined) return undefined;
      // A floor keeps every unpinned block above it: one kept at or below this block's priority shows no floor left this one out.
      const under = answer.included
        .map((id) => byId.get(id))
        .find((k): k is PrincipleBlock => k !== undefined && k.pinned !== true && (priorityOf(k) ?? Number.POSITIVE_INFINITY) <= p);
      return under ? `${quote(under.block_id)} is included, unpinned, at priority ${priorityOf(under)} (this block's is ${p})` : undefined;
    }
    default:
      return undefined;
  }
}

const REASON_WORDS: Readonly<Record<string, string>> = {
  expired: 'as expired',
  budget: 'for the budget',
  excluded: 'as excluded',
  superseded: 'as superseded',
  disputed: 'as disputed',
  duplicate: 'as a duplicate',
  score_floor: 'as below the score floor',
};

/**
 * ANY-4 held to the request: each omission whose reason's class is false of its block, named with
 * what is true. A live pinned block left out is ANY-6's, whatever reason it is given, and an
 * expired block called a budget drop in an answer that keeps another expired block is the same
 * missing expiry ANY-5 names: one defect, one finding.
 */
export function reasonFindings(request: PrincipleRequest, answer: Result, design: Design, capabilities: readonly string[], out: Finding[]): void {
  const byId = new Map(request.blocks.map((b) => [b.block_id, b]));
  const keepsExpired = answer.included.some((id) => byId.has(id) && design.expired(request.now, byId.get(id)!));
  for (const o of answer.omissions) {
    const b = byId.get(o.block_id);
    const cls = anyReasonClass(o.reason);
    if (b === undefined || cls === undefined) continue;
    if (capabilities.includes('pinned') && b.pinned === true && !design.expired(request.now, b)) continue;
    if (cls === 'budget' && keepsExpired) continue;
    const why = falseOf(cls, b, request, answer, design, byId);
    if (why === undefined) continue;
    out.push({
      id: 'ANY-4',
      message: `block ${quote(b.block_id)} is omitted ${REASON_WORDS[cls] ?? `as ${cls}`} (${quote(String(o.reason))}), but ${why}`,
      expected: `a reason true of ${b.block_id}`,
      kinds: [kindOf(cls, b, request.now)],
      actual: o,
    });
  }
}
