/**
 * Blocks that belong together (SPEC DES-9, ANY-16): a tool call and its
 * result, a question and its answer. A design that declares the member that
 * links them keeps a group whole or drops it whole; half a tool exchange is the
 * chat form of half a fact, and providers refuse a result without its call.
 */
import { isExpired } from '../../reference/index.js';
import type { Result } from '../../protocol/types.js';
import type { Finding, PrincipleBlock, PrincipleRequest } from './finding.js';

const quote = (s: string): string => JSON.stringify(s);

/** ANY-16 for one answer: each group of two or more blocks, by the declared member's value, is all included or all left out. */
export function groupFindings(request: PrincipleRequest, answer: Result, member: string, out: Finding[]): void {
  const groups = new Map<string, PrincipleBlock[]>();
  for (const b of request.blocks) {
    const g = b[member];
    if (typeof g !== 'string' || g === '') continue;
    groups.set(g, [...(groups.get(g) ?? []), b]);
  }
  const included = new Set(answer.included);
  const expired = (b: PrincipleBlock): boolean => isExpired(request.now, b.created_at ?? 0, b.ttl_seconds ?? 0);
  for (const [g, blocks] of groups) {
    if (blocks.length < 2) continue;
    // An expired block beside a live pinned one: no answer keeps the group whole lawfully (ANY-5, ANY-6), so it is not judged whole.
    if (blocks.some(expired) && blocks.some((b) => b.pinned === true && !expired(b))) continue;
    const kept = blocks.filter((b) => included.has(b.block_id)).map((b) => b.block_id);
    if (kept.length === 0 || kept.length === blocks.length) continue;
    const left = blocks.filter((b) => !included.has(b.block_id)).map((b) => b.block_id);
    out.push({
      id: 'ANY-16',
      message: `group ${quote(g)} (${member}) is split: ${kept.map(quote).join(', ')} ${kept.length === 1 ? 'is' : 'are'} included without ${left.map(quote).join(', ')}; blocks that belong together are kept or dropped together`,
      expected: 'all of the group, or none',
      actual: { included: kept, left_out: left },
    });
  }
}
