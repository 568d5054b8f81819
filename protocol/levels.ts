/** The level every recorded request is judged at (replay, the shadow): the principles for a manifest of the any level alone, else its profile. */
export const recordedLevel = (m: Profiles): Level => (anyOnly(m) ? 'any' : 'profile');

/**
 * Which levels a manifest is judged on (SPEC LVL-1, LVL-2): read by the
 * engine that judges and by the reports that name the levels a run reached.
 */
import type { Level } from './types.js';

type Profiles = { readonly profiles: readonly string[] };

/** Whether a manifest is judged on the any level alone: it declares `any` and no exact profile. */
export const anyOnly = (m: Profiles): boolean => m.profiles.includes('any') && !m.profiles.includes('tiered') && !m.profiles.includes('ranked');

/**
 * Whether a manifest is judged on a level: the any level for `any` and for
 * `tiered` (its cases hold every tiered replica too), the profile level for
 * `tiered` or `ranked`, validation unless the manifest declares `any` alone
 * without `"validates": true` (LVL-2). The contract is judged when its clauses
 * ran, whatever the manifest says.
 */
export function declaresLevel(m: Profiles & { readonly validates?: boolean }, level: Level): boolean {
  switch (level) {
    case 'any':
      return m.profiles.includes('any') || m.profiles.includes('tiered');
    case 'profile':
      return m.profiles.includes('tiered') || m.profiles.includes('ranked');
    case 'validation':
      return !anyOnly(m) || m.validates === true;
    case 'contract':
      return false;
  }
}
