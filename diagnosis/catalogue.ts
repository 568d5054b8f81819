/**
 * The catalogue of known defects: each a named, exact way to get the spec
 * wrong, with the requirements it breaks, one sentence a vendor understands,
 * and the hooks of the model (hooks.ts) it overrides to make an
 * implementation with it. A fixed defect is its own module in defects/,
 * registered from that folder (defect.ts); the two undeclared constants
 * (another divisor, another split) are generated below, one entry per common
 * value. Sentences that quote the specification's numbers take them from its
 * design (reference/design.ts). Entries compose: two entries together are an
 * implementation with both, unless they override the same hook (conflicting).
 *
 * A family (families.ts) stands for a defect with a value the kit cannot
 * guess in advance (the text of a preamble, a source moved to another tier):
 * its instances are read off the failing answers of a run, and each is then
 * an exact model like any other entry.
 */
import { CHARS_PER_TOKEN, TIER_PERCENT } from '../reference/index.js';
import type { Tier } from '../protocol/assembly.js';
import { DEFECTS_DIR, REGISTERED, registerDefect, registerDefectsIn } from './defect-registry.js';
import type { CatalogueEntry, Feature, Section } from './defect-registry.js';

const SECTION_REACH: Readonly<Record<Section, readonly Feature[]>> = {
  validation: ['invalid'],
  counting: ['valid'],
  estimate: ['valid'],
  tiers: ['tiered'],
  pool: ['tiered'],
  expiry: ['valid'],
  ordering: ['tiered'],
  rendering: ['tiered'],
  omissions: ['valid'],
  pinned: ['pinned'],
  constraints: ['constraints'],
  lifecycle: ['status'],
  working_context: ['working_context'],
  markers: ['omission_markers'],
  ranked: ['ranked'],
  constants: ['valid'],
};

/** The features a request needs to show this entry; undefined: any request may. */
export function reachOf(e: Pick<CatalogueEntry, 'section' | 'when'>): readonly Feature[] | undefined {
  return e.when ?? SECTION_REACH[e.section];
}

const split = (w: number, e: number, l: number, k: number): Record<Tier, number> => ({ working: w, episodic: e, longterm: l, knowledge: k });
const splitLabel = (p: Readonly<Record<Tier, number>>): string => `${p.working}/${p.episodic}/${p.longterm}/${p.knowledge}`;
const SPEC_SPLIT = splitLabel(TIER_PERCENT);

/** Undeclared splits: the mutants' two, the common even and tuned ones, and every swap of two of the spec's shares. */
function splitEntries(): CatalogueEntry[] {
  const shares = [split(50, 15, 20, 15), split(40, 20, 20, 20), split(25, 25, 25, 25), split(50, 20, 20, 10)];
  const tiers = Object.keys(TIER_PERCENT) as Tier[];
  for (let i = 0; i < tiers.length; i++) {
    for (let j = i + 1; j < tiers.length; j++) {
      const p = { ...TIER_PERCENT };
      [p[tiers[i]!], p[tiers[j]!]] = [p[tiers[j]!], p[tiers[i]!]];
      shares.push(p);
    }
  }
  return shares.map((p) => ({
    id: `tier-split-${p.working}-${p.episodic}-${p.longterm}-${p.knowledge}`,
    section: 'constants',
    requirements: ['TIER-2', 'DECL-1'],
    summary:
      `the tier budgets are split ${splitLabel(p)} (working/episodic/longterm/knowledge) without declaring ` +
      `it; TIER-2 says ${SPEC_SPLIT}, and another split must be declared in the manifest (section 17)`,
    defects: { tierPercent: p },
    when: ['tiered'],
  }));
}

const charsPerTokenEntries = (): CatalogueEntry[] =>
  [1, 2, 3, 5, 6, 8].map((n) => ({
    id: `chars-per-token-${n}`,
    section: 'constants',
    requirements: ['NUM-2', 'DECL-1'],
    summary: `the estimate divides by ${n} characters per token without declaring it; NUM-2 divides by ${CHARS_PER_TOKEN}, and another divisor must be declared in the manifest (section 17)`,
    defects: { charsPerToken: n },
  }));

await registerDefectsIn(DEFECTS_DIR);
// After the modules of their section: under a declaration a declared constant the implementation ignores can be
// the same implementation as an undeclared one (ranked on the declared 3 characters per token is chars-per-token-3
// there), and the declared reading is the one to name.
for (const e of [...charsPerTokenEntries(), ...splitEntries()]) registerDefect(e);

/**
 * Every known defect, in catalogue order: by section, the defect modules by
 * file name, then the generated entries. Live: a defect registered
 * later (registerDefect) is in it from then on.
 */
export const CATALOGUE: readonly CatalogueEntry[] = REGISTERED;
