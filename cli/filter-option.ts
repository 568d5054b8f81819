/**
 * `--filter EXPR` as run and list check it: against everything a run can
 * select (the cases, one result per property, one per contract clause), so a
 * tag, requirement, area or id glob that selects nothing is a usage error
 * instead of a run that tests nothing in silence.
 */
import { checkedFilter, FilterError } from '../conformance/cases/filter.js';
import type { GoldenCase } from '../conformance/types.js';
import { UsageError } from '../conformance/usage.js';

export async function checkFilterOption(expr: string, cases: readonly GoldenCase[]): Promise<ReturnType<typeof checkedFilter>> {
  // The property and clause names come with their modules (fast-check among them): loaded only to filter.
  const [{ PROPERTIES }, { CLAUSES }] = await Promise.all([import('../conformance/properties/index.js'), import('../conformance/contract/clauses.js')]);
  const selectable = [...PROPERTIES.map((p) => `property/${p.name}`), ...CLAUSES.map((c) => `contract/${c.name}`)];
  try {
    return checkedFilter(expr, cases, selectable);
  } catch (e) {
    if (e instanceof FilterError) throw new UsageError(`--filter ${e.message}`);
    throw e;
  }
}
