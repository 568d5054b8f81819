/**
 * The level each result speaks for (protocol/types.ts Level), decided here
 * for every kind: the engine stamps it on the results it makes, and a report
 * of a kit before levels is read with the level this gives it.
 */
import type { CaseResult, Level, Manifest, ResultKind } from '../protocol/types.js';
import { anyOnly, recordedLevel } from '../protocol/levels.js';
import type { Expectation, GoldenCase } from './types.js';

/** The tag every golden case expecting `invalid_request` carries: test/cases/levels.test.ts holds the corpus to it. */
export const INVALID_TAG = 'invalid';

/** The properties about input validation: each sends requests the specification says to refuse. */
const VALIDATION_PROPERTIES: ReadonlySet<string> = new Set(['invalid-requests']);

/** Whether the manifest declares only the any level for a case of this profile: its tiered cases are judged by the principles (SPEC LVL-3). */
export const anyOnlyFor = (c: Pick<GoldenCase, 'profile'>, m: Pick<Manifest, 'profiles'>): boolean =>
  c.profile !== 'ranked' && !m.profiles.includes(c.profile) && m.profiles.includes('any');

/**
 * The level a golden case is judged on (SPEC LVL-1): validation when it expects the request
 * refused as `invalid_request`; the any level for a case of profile any, or a tiered case sent to
 * a manifest of the any level alone; else its profile, exactly. Without a manifest, as written.
 */
export function caseLevel(c: Pick<GoldenCase, 'profile'> & { expect?: Pick<Expectation, 'error'> }, manifest?: Pick<Manifest, 'profiles'>): Level {
  if (c.expect?.error === 'invalid_request') return 'validation';
  if (c.profile === 'any' || (manifest !== undefined && anyOnlyFor(c, manifest))) return 'any';
  return 'profile';
}

/**
 * The any level's properties are named `any-...` (judging/properties/any-level.ts);
 * for a manifest of the any level alone, the properties every design owes and
 * still runs (determinism, unknown members: ANY-8, ANY-9) speak for that level too.
 */
export function propertyLevel(name: string, manifest?: Pick<Manifest, 'profiles'>): Level {
  if (VALIDATION_PROPERTIES.has(name)) return 'validation';
  return name.startsWith('any-') || (manifest !== undefined && anyOnly(manifest)) ? 'any' : 'profile';
}

/** A recorded request (replay, the shadow): judged by the principles for a manifest of the any level alone. */
export function recordLevel(manifest: Pick<Manifest, 'profiles'>): Level {
  return recordedLevel(manifest);
}

/** The level of every result of a kind that is not a golden case or a property. */
export const KIND_LEVEL = { contract: 'contract', replay: 'profile', sweep: 'profile' } as const satisfies Record<
  Exclude<ResultKind, 'case' | 'property'>,
  Level
>;

export const CONTRACT_LEVEL: Level = KIND_LEVEL.contract;

/** The kind of a result of a kit before `kind`, from its id's first segment. */
function kindFromId(id: string): ResultKind {
  const area = id.slice(0, id.indexOf('/'));
  return area === 'property' || area === 'contract' || area === 'replay' || area === 'sweep' ? area : 'case';
}

/**
 * A result read from a report of an older kit, with the kind and level it
 * lacks: a golden case's level from its tags (its expectation is not in the
 * report), a property's from its name.
 */
export function withLevel(c: Omit<CaseResult, 'kind' | 'level'> & { kind?: ResultKind; level?: Level }): CaseResult {
  if (c.kind !== undefined && c.level !== undefined) return c as CaseResult;
  const kind = c.kind ?? kindFromId(c.id);
  const tags = (c as { tags?: unknown }).tags;
  const level: Level =
    c.level ??
    (kind === 'case'
      ? Array.isArray(tags) && tags.includes(INVALID_TAG)
        ? 'validation'
        : 'profile'
      : kind === 'property'
        ? propertyLevel(c.id.slice('property/'.length))
        : KIND_LEVEL[kind]);
  return { ...c, kind, level } as CaseResult;
}
