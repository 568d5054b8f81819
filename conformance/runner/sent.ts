/**
 * What the kit sends for a case: at the any level, its request with the
 * members the declared design reads (SPEC DES-5). The runner sends it, and the
 * judge, the report and the diagnosis read that request, never the file's.
 */
import type { Manifest } from '../../protocol/types.js';
import { caseLevel } from '../levels.js';
import { withMembers } from '../principles/members.js';
import type { GoldenCase } from '../types.js';

/** A case as the kit sends it: at the any level its request carries the members the design reads (DES-5), and it is judged, reported and diagnosed as sent. */
export function caseAsSent(c: GoldenCase, manifest: Pick<Manifest, 'profiles'> & Partial<Pick<Manifest, 'design'>>): GoldenCase {
  const members = manifest.design?.members;
  return members && caseLevel(c, manifest) === 'any' ? { ...c, request: withMembers(c.request, members) } : c;
}
