/**
 * The registry of known defects the diagnosis names. A defect is a catalogue
 * entry whose `defects` override named hooks of the model (hooks.ts); each is
 * one module in defects/, found there when the catalogue loads (no list
 * names them), so a new defect is its module: its hook override and its
 * entry. The catalogue generates its entries for undeclared constants after
 * them (catalogue.ts).
 */
import { fileURLToPath } from 'node:url';
import { entryModules } from '../protocol/entries.js';
import { SPEC_HOOKS } from './hooks.js';
import type { Defects } from './model.js';

/** The catalogue's sections, in the order a section without entries takes its place. */
export const SECTIONS = [
  'validation',
  'counting',
  'estimate',
  'tiers',
  'pool',
  'expiry',
  'ordering',
  'rendering',
  'omissions',
  'pinned',
  'constraints',
  'lifecycle',
  'working_context',
  'markers',
  'ranked',
  'constants',
] as const;

export type Section = (typeof SECTIONS)[number];

/**
 * What a request must have for a defect to change its answer: a valid request
 * of a profile, a pinned block, a constraints member, a block status other
 * than active, a capability, declared constants; or being invalid. A defect
 * answers every request that has none of its features as the model without
 * defects does (test/diagnose/reach.test.ts holds every entry to that), so
 * the diagnosis need not ask it about them.
 */
export type Feature = 'invalid' | 'valid' | 'tiered' | 'ranked' | 'pinned' | 'constraints' | 'status' | 'working_context' | 'omission_markers' | 'declared';

export interface CatalogueEntry {
  /** Stable, kebab-case. */
  id: string;
  section: Section;
  requirements: readonly string[];
  /** What the implementation does, and what the spec says instead. */
  summary: string;
  defects: Defects;
  /** The entry shows only under declared constants (SPEC section 17): inert without them. */
  declaredOnly?: boolean;
  /** The features of which a request needs one to show the defect (reachOf: the section's when absent). */
  when?: readonly Feature[];
}

/** Every entry, in catalogue order: by section, in the order each was registered within it. */
const entries: CatalogueEntry[] = [];

/** The live catalogue: what registerDefect has registered, in catalogue order. */
export const REGISTERED: readonly CatalogueEntry[] = entries;

/** A defect module's entry (identity: it only checks the entry's shape). */
export function defineDefect(e: CatalogueEntry): CatalogueEntry {
  return e;
}

/**
 * Add an entry to the catalogue, after the last entry of its section; when
 * its section has none yet, after the last entry of an earlier section
 * (SECTIONS), or first.
 */
export function registerDefect(e: CatalogueEntry): void {
  if (entries.some((x) => x.id === e.id)) throw new Error(`a defect named ${e.id} is registered already`);
  if (!SECTIONS.includes(e.section)) throw new Error(`the defect ${e.id} names no section of the catalogue (${e.section})`);
  // A misspelt hook would be a defect that changes nothing, and the diagnosis would never name it.
  const unknown = Object.keys(e.defects).filter((k) => !Object.hasOwn(SPEC_HOOKS, k));
  if (unknown.length > 0) throw new Error(`the defect ${e.id} overrides no hook of the model named ${unknown.join(', ')} (hooks.ts ModelHooks)`);
  if (Object.keys(e.defects).length === 0) throw new Error(`the defect ${e.id} overrides no hook`);
  const rank = SECTIONS.indexOf(e.section);
  let at = entries.findLastIndex((x) => x.section === e.section);
  if (at < 0) at = entries.findLastIndex((x) => SECTIONS.indexOf(x.section) < rank);
  entries.splice(at + 1, 0, e);
}

export function unregisterDefect(id: string): void {
  const i = entries.findIndex((x) => x.id === id);
  if (i >= 0) entries.splice(i, 1);
}

const isEntry = (x: unknown): x is CatalogueEntry =>
  typeof x === 'object' && x !== null && typeof (x as CatalogueEntry).id === 'string' && typeof (x as CatalogueEntry).defects === 'object';

/**
 * Register every defect module of `dir`, by file name: each file that ends
 * as this module does (`.js` compiled, `.ts` under vitest or tsx) and
 * default-exports an entry. A module that exports none is an error naming it.
 */
export async function registerDefectsIn(dir: string): Promise<void> {
  for (const e of await entryModules(dir, import.meta.url, isEntry, 'defect', 'defineDefect')) registerDefect(e);
}

/** The built-in defect modules' folder, beside this module. */
export const DEFECTS_DIR = fileURLToPath(new URL('./defects/', import.meta.url));
