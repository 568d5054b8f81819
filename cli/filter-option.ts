/**
 * `--filter EXPR` as run, contract and list check it: against everything a run can
 * select (the cases, one result per property, one per contract clause), so a
 * tag, requirement, area or id glob that selects nothing is a usage error
 * instead of a run that tests nothing in silence.
 */
import { checkedFilter, FilterError } from '../judging/cases/filter.js';
import { PROPERTY_NAMES } from '../judging/properties/names.js';
import type { GoldenCase } from '../vocabulary/types.js';
import { UsageError } from './usage.js';

/** `properties: false` for a command that runs none (ctxconform contract): a property id selects nothing there. */
export async function checkFilterOption(
  expr: string,
  cases: readonly GoldenCase[],
  { properties = true }: { properties?: boolean } = {},
): Promise<ReturnType<typeof checkedFilter>> {
  // The clause names come with their module: loaded only to filter. The property names are kept apart from the
  // properties, whose modules (fast-check among them) a run of golden cases alone does not load.
  const { CLAUSES } = await import('../contract/clauses.js');
  const selectable = [...(properties ? PROPERTY_NAMES.map((name) => `property/${name}`) : []), ...CLAUSES.map((c) => `contract/${c.name}`)];
  try {
    return checkedFilter(expr, cases, selectable);
  } catch (e) {
    if (e instanceof FilterError) throw new UsageError(`--filter ${e.message}`);
    throw e;
  }
}
