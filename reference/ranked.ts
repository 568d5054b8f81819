import { RANKED_HEADER, REASON_BUDGET, REASON_EXPIRED } from './constants.js';
import { estimateTokens } from './estimate.js';
import { LARGE } from './block-arrays.js';
import { stableSort } from './merge-sort.js';
import { byPriorityStable } from './rank-sort.js';
import type { Omission, Result } from '../protocol/assembly.js';
import { isDated } from './validate.js';
import type { NormalRequest } from './validate.js';

/** SPEC section 6: the recalled-beliefs packer. */
export function assembleRanked(r: NormalRequest): Result {
  const { blocks, ids } = r;
  const omissions: Omission[] = [];
  const live: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (r.expired[i]) omissions.push({ block_id: ids[i]!, reason: REASON_EXPIRED });
    else live.push(i);
  }
  const order = packingOrder(r, live);

  let used = estimateTokens(RANKED_HEADER);
  const lines: string[] = [];
  const included: string[] = [];
  let j = 0;
  for (; j < order.length; j++) {
    const i = order[j]!;
    const b = blocks[i]!;
    const line = '- [' + (isDated(b) ? utcDate(r.createdAt[i]!) : 'undated') + '] ' + r.contents[i]!;
    const cost = estimateTokens(line);
    if (used + cost > r.budget) break;
    used += cost;
    lines.push(line);
    included.push(ids[i]!);
  }
  for (; j < order.length; j++) omissions.push({ block_id: ids[order[j]!]!, reason: REASON_BUDGET });

  const any = lines.length > 0;
  return {
    context: any ? RANKED_HEADER + '\n' + lines.join('\n') : '',
    included,
    estimated_tokens: any ? used : 0,
    total_budget: r.budget,
    omissions,
  };
}

/** RANK-1: live blocks by -priority, ties in input order (a stable sort; the radix one for many blocks). */
function packingOrder(r: NormalRequest, live: number[]): ArrayLike<number> {
  const { priority } = r;
  if (live.length < LARGE) return stableSort(live, (x, y) => (priority[x] === priority[y] ? 0 : priority[x]! > priority[y]! ? -1 : 1));
  return byPriorityStable(live, priority);
}

/** YYYY-MM-DD of the UTC day containing `seconds` (proleptic Gregorian, years 1..9999). */
export function utcDate(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  // Civil-from-days (H. Hinnant), exact for every day in range.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return String(y).padStart(4, '0') + '-' + String(m).padStart(2, '0') + '-' + String(d).padStart(2, '0');
}
