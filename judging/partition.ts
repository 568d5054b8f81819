/**
 * RES-2, judged in one place for the golden cases' judge and the partition
 * property: every block of the request is named exactly once, in included
 * or in omissions.
 */

/** What breaks the partition: ids not named, named more than once, and named but not in the request. */
export interface PartitionBreaks {
  missing: string[];
  more_than_once: string[];
  not_in_request: string[];
}

interface Named {
  included: readonly string[];
  omissions: readonly { block_id: string }[];
}

/** Each distinct id of the request by the index of its first block. */
export function idIndex(requested: readonly string[]): Map<string, number> {
  const at = new Map<string, number>();
  requested.forEach((id, i) => {
    if (!at.has(id)) at.set(id, i);
  });
  return at;
}

/** The case with nothing to list, checked without building the lists: as many entries as distinct ids, each named once. */
function partitioned(requested: readonly string[], r: Named, at: ReadonlyMap<string, number>): boolean {
  if (r.included.length + r.omissions.length !== at.size) return false;
  const named = new Uint8Array(requested.length);
  const once = (id: string): boolean => {
    const i = at.get(id);
    if (i === undefined || named[i] === 1) return false;
    named[i] = 1;
    return true;
  };
  for (const id of r.included) if (!once(id)) return false;
  for (const o of r.omissions) if (!once(o.block_id)) return false;
  return true;
}

/** What breaks RES-2 in an answer to a request with these block ids; undefined when nothing does. `at` is idIndex(requested), when the caller keeps one. */
export function partitionBreaks(requested: readonly string[], r: Named, at: ReadonlyMap<string, number> = idIndex(requested)): PartitionBreaks | undefined {
  if (partitioned(requested, r, at)) return undefined;
  const seen = [...r.included, ...r.omissions.map((o) => o.block_id)];
  const counts = new Map<string, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  const missing = requested.filter((id) => !counts.has(id));
  const twice: string[] = [];
  for (const [id, n] of counts) if (n > 1) twice.push(id);
  const unknown = seen.filter((id) => !at.has(id));
  return missing.length + twice.length + unknown.length > 0 ? { missing, more_than_once: twice, not_in_request: unknown } : undefined;
}
