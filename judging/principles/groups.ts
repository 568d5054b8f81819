/**
 * Blocks that belong together (SPEC DES-9, ANY-16): a tool call and its
 * result, a question and its answer. A design that declares the member that
 * links them keeps a group whole or drops it whole; half a tool exchange is the
 * chat form of half a fact, and providers refuse a result without its call.
 */
import type { Result } from '../../protocol/assembly.js';
import type { Finding, PrincipleBlock, PrincipleRequest } from './finding.js';
import type { Design } from './design.js';
import { quote } from './finding.js';

/** The group a block belongs to under the declared linking member (DES-9): its value, or undefined (none declared, absent, not a string, empty). */
export const groupOf = (b: PrincipleBlock, member: string | undefined): string | undefined => {
  const g = member === undefined ? undefined : b[member];
  return typeof g === 'string' && g !== '' ? g : undefined;
};

/**
 * The groups ANY-16 judges, each in the request's order: two or more blocks sharing a value,
 * but not a group holding an expired block beside a live pinned one, which no answer keeps
 * whole lawfully (ANY-5, ANY-6).
 */
export function judgedGroups(request: PrincipleRequest, design: Pick<Design, 'expired'>, member: string): { id: string; blocks: PrincipleBlock[] }[] {
  const groups = new Map<string, PrincipleBlock[]>();
  for (const b of request.blocks) {
    const g = groupOf(b, member);
    if (g !== undefined) groups.set(g, [...(groups.get(g) ?? []), b]);
  }
  const expired = (b: PrincipleBlock): boolean => design.expired(request.now, b);
  return [...groups]
    .filter(([, blocks]) => blocks.length > 1 && !(blocks.some(expired) && blocks.some((b) => b.pinned === true && !expired(b))))
    .map(([id, blocks]) => ({ id, blocks }));
}

/** ANY-16 for one answer: each judged group is all included or all left out. */
export function groupFindings(request: PrincipleRequest, answer: Result, design: Pick<Design, 'expired'>, member: string, out: Finding[]): void {
  const included = new Set(answer.included);
  for (const { id: g, blocks } of judgedGroups(request, design, member)) {
    const kept = blocks.filter((b) => included.has(b.block_id)).map((b) => b.block_id);
    if (kept.length === 0 || kept.length === blocks.length) continue;
    const left = blocks.filter((b) => !included.has(b.block_id)).map((b) => b.block_id);
    out.push({
      id: 'ANY-16',
      message:
        `group ${quote(g)} (${member}) is split: ${kept.map(quote).join(', ')} ${kept.length === 1 ? 'is' : 'are'} ` +
        `included without ${left.map(quote).join(', ')}; blocks that belong together are kept or dropped together`,
      expected: 'all of the group, or none',
      actual: { included: kept, left_out: left },
    });
  }
}
