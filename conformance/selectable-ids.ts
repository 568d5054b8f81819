/**
 * The ids a `--filter` can select besides the golden cases': one per
 * property and one per memory-api contract clause, as their results are named.
 */
import { CLAUSES } from './contract/clauses.js';
import { PROPERTIES } from './properties/index.js';

export function propertyAndClauseIds(): string[] {
  return [...PROPERTIES.map((p) => `property/${p.name}`), ...CLAUSES.map((c) => `contract/${c.name}`)];
}
