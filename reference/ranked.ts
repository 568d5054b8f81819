import { RANKED_HEADER, REASON_BUDGET, REASON_EXPIRED } from './constants.js';
import { estimateTokens, isExpired } from './estimate.js';
import type { Omission, Result } from './types.js';
import type { NormalBlock, NormalRequest } from './validate.js';

/** SPEC section 6: the recalled-beliefs packer. */
export function assembleRanked(r: NormalRequest): Result {
  const omissions: Omission[] = [];
  const live: NormalBlock[] = [];
  for (const b of r.blocks) {
    if (isExpired(r.now, b.created_at, b.ttl_seconds)) omissions.push({ block_id: b.block_id, reason: REASON_EXPIRED });
    else live.push(b);
  }
  // Array.prototype.sort is stable: ties keep input order (RANK-1).
  live.sort((a, b) => (a.priority === b.priority ? 0 : a.priority > b.priority ? -1 : 1));

  let used = estimateTokens(RANKED_HEADER);
  const lines: string[] = [];
  const included: string[] = [];
  let i = 0;
  for (; i < live.length; i++) {
    const b = live[i]!;
    const line = '- [' + (b.dated ? utcDate(b.created_at) : 'undated') + '] ' + b.content;
    const cost = estimateTokens(line);
    if (used + cost > r.budget) break;
    used += cost;
    lines.push(line);
    included.push(b.block_id);
  }
  for (; i < live.length; i++) omissions.push({ block_id: live[i]!.block_id, reason: REASON_BUDGET });

  const any = lines.length > 0;
  return {
    context: any ? RANKED_HEADER + '\n' + lines.join('\n') : '',
    included,
    estimated_tokens: any ? used : 0,
    total_budget: r.budget,
    omissions,
  };
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
