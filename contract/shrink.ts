/**
 * Greedy shrinking of a random scenario that broke a clause: drop blocks,
 * constraint members and the reserve one at a time while the clause still
 * breaks. Each try is a full exchange with the service, so the tries are
 * bounded; fast-check's own shrinker cannot start from a chained value.
 */
import type { Request } from '../protocol/assembly.js';
import type { Scenario } from './scenarios.js';

/** Every scenario one step smaller than `sc`. */
export function smaller(sc: Scenario): Scenario[] {
  const out: Scenario[] = [];
  const r = sc.request;
  r.blocks.forEach((b, i) => {
    const drop = (ids: string[] | undefined) => ids?.filter((id) => id !== b.block_id);
    const constraints = r.constraints ? { ...r.constraints, must_include: drop(r.constraints.must_include), exclude: drop(r.constraints.exclude) } : undefined;
    for (const k of ['must_include', 'exclude'] as const) if (constraints && constraints[k] === undefined) delete constraints[k];
    const request: Request = { ...r, blocks: r.blocks.filter((_, j) => j !== i), ...(constraints ? { constraints } : {}) };
    out.push({ ...sc, request });
  });
  for (const key of Object.keys(r.constraints ?? {}) as (keyof NonNullable<Request['constraints']>)[]) {
    const constraints = { ...r.constraints };
    delete constraints[key];
    out.push({ ...sc, request: { ...r, constraints } });
  }
  if (sc.reservedTokens > 0) out.push({ ...sc, reservedTokens: 0 });
  return out;
}

export async function shrink(sc: Scenario, stillBreaks: (s: Scenario) => Promise<boolean>, maxTries = 40): Promise<{ scenario: Scenario; tries: number }> {
  let best = sc;
  let tries = 0;
  let improved = true;
  while (improved && tries < maxTries) {
    improved = false;
    for (const s of smaller(best)) {
      if (tries >= maxTries) break;
      tries++;
      if (await stillBreaks(s)) {
        best = s;
        improved = true;
        break;
      }
    }
  }
  return { scenario: best, tries };
}
