/**
 * What the kit sends for a case: at the any level, its request with the
 * members the declared design reads (SPEC DES-5). The runner sends it, and the
 * judge, the report and the diagnosis read that request, never the file's.
 */
import type { Manifest } from '../protocol/types.js';
import { caseLevel } from '../vocabulary/levels.js';
import { withMembers } from '../judging/principles/members.js';
import type { GoldenCase } from '../vocabulary/types.js';

/** A case as the kit sends it: at the any level its request carries the members the design reads (DES-5), and it is judged, reported and diagnosed as sent. */
export function caseAsSent(c: GoldenCase, manifest: Pick<Manifest, 'profiles'> & Partial<Pick<Manifest, 'design'>>): GoldenCase {
  const design = manifest.design;
  if (caseLevel(c, manifest) !== 'any' || (!design?.members && !design?.groups)) return c;
  const grouped = design.groups && design.groups !== 'group' ? renameMember(c.request, 'group', design.groups) : c.request;
  return { ...c, request: design.members ? withMembers(grouped, design.members) : grouped };
}

/** The level's cases write a group as `group` (DES-9): sent under the member the design declares. */
function renameMember(request: unknown, from: string, to: string): unknown {
  const r = request as { blocks?: unknown };
  if (typeof request !== 'object' || request === null || !Array.isArray(r.blocks)) return request;
  const blocks = r.blocks.map((b: unknown) => {
    if (typeof b !== 'object' || b === null || !(from in b)) return b;
    const { [from]: value, ...rest } = b as Record<string, unknown>;
    return { ...rest, [to]: value };
  });
  return { ...r, blocks };
}
