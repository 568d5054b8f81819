/**
 * Declared constants (SPEC section 17): the three tables of profile `tiered`
 * an implementation may declare, checked, and resolved into the form
 * selection reads them in. Everything else about the algorithm is fixed.
 */
import { designOf, SPEC_DESIGN, TIERS, tierIn } from './design.js';
import type { Design } from './design.js';
import type { DeclaredConstants, Problem, Tier } from '../protocol/assembly.js';
import { pointer } from './validate.js';

/** DECL-1: the largest declarable chars per token. */
export const MAX_CHARS_PER_TOKEN = 16;

/** The constants of one assembly as selection reads them. */
export interface Tuning {
  readonly charsPerToken: number;
  /** Whole percentages by tier. */
  readonly percent: Readonly<Record<Tier, number>>;
  tierOf(source: string): Tier;
}

/** The constants of a design that counts (design.ts), as selection reads them. */
function tuningFrom(design: Design): Tuning {
  const { tiers, count } = design;
  return { charsPerToken: count!.charsPerToken, percent: tiers.percent, tierOf: (source) => tierIn(tiers, source) };
}

/** The specification's constants (sections 4 and 5). */
export const SPEC_TUNING: Tuning = Object.freeze(tuningFrom(SPEC_DESIGN));

const MEMBERS = ['chars_per_token', 'tier_fractions', 'source_to_tier'];

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isTier = (x: unknown): x is Tier => typeof x === 'string' && (TIERS as readonly string[]).includes(x);
const isWhole = (x: unknown, min: number, max: number): x is number => typeof x === 'number' && Number.isInteger(x) && x >= min && x <= max;

/**
 * SPEC DECL-1: every problem of a `constants` declaration, each with the JSON
 * Pointer of the member at fault (under the declaration); [] when it is valid.
 * A member it does not define is a problem: the algorithm is not negotiable,
 * and a misspelt constant must not pass for the specification's.
 */
export function constantsProblems(constants: unknown): Problem[] {
  const out: Problem[] = [];
  const add = (path: string, message: string): void => void out.push({ path, message });
  if (!isObject(constants)) {
    add('', 'constants must be an object');
    return out;
  }
  for (const key of Object.keys(constants)) {
    if (!MEMBERS.includes(key)) add(pointer(key), `"${key}" is not a declarable constant (only ${MEMBERS.join(', ')})`);
  }
  const cpt = constants.chars_per_token;
  if (cpt !== undefined && !isWhole(cpt, 1, MAX_CHARS_PER_TOKEN))
    add(pointer('chars_per_token'), `chars_per_token must be an integer from 1 to ${MAX_CHARS_PER_TOKEN}`);
  const fractions = constants.tier_fractions;
  if (fractions !== undefined) {
    if (!isObject(fractions)) add(pointer('tier_fractions'), `tier_fractions must be an object of whole percentages, one for each of ${TIERS.join(', ')}`);
    else {
      let sum = 0;
      let whole = true;
      for (const tier of TIERS) {
        const pct = fractions[tier];
        if (isWhole(pct, 0, 100)) sum += pct;
        else {
          whole = false;
          add(
            pointer('tier_fractions', tier),
            pct === undefined ? `tier_fractions needs the tier ${tier}` : `the ${tier} share must be a whole percentage from 0 to 100`,
          );
        }
      }
      for (const key of Object.keys(fractions)) if (!isTier(key)) add(pointer('tier_fractions', key), `"${key}" is not a tier (${TIERS.join(', ')})`);
      if (whole && sum > 100) add(pointer('tier_fractions'), `the tier shares sum to ${sum}, more than 100`);
    }
  }
  const map = constants.source_to_tier;
  if (map !== undefined) {
    if (!isObject(map)) add(pointer('source_to_tier'), 'source_to_tier must be an object from source names to tiers');
    else {
      for (const [source, tier] of Object.entries(map)) {
        if (source === '') add(pointer('source_to_tier', source), 'a source name must not be empty');
        else if (!isTier(tier)) add(pointer('source_to_tier', source), `the tier of "${source}" must be one of ${TIERS.join(', ')}`);
      }
    }
  }
  return out;
}

/** A valid declaration (constantsProblems gave []) as selection reads it: the specification's design with those values (designOf); SPEC_TUNING when it declares nothing. */
export function tuningOf(constants: DeclaredConstants): Tuning {
  const design = designOf(constants);
  return design === SPEC_DESIGN ? SPEC_TUNING : tuningFrom(design);
}
