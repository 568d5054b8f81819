/**
 * How an implementation spells its omission reasons. RES-4 lets it write a
 * code of the class instead of the originating text, so the spelling is its
 * own choice, like its capabilities: the diagnosis reads it off the answers
 * (per site: pool omissions, required omissions, ranked omissions, ...) and
 * runs every model with it. A failure the model reproduces with nothing but
 * that spelling is a failure of the spelling: a case that pins the
 * originating text (section 10), or a reason no class maps (CLS-1).
 */
import { REASON_TIER_BUDGET } from '../reference/index.js';
import type { Outcome } from '../protocol/types.js';
import { reasonClass } from '../vocabulary/reason-classes.js';
import type { ReasonClass } from '../vocabulary/reason-classes.js';
import { SITE_REASONS } from './model.js';
import type { Answer } from './model.js';
import type { Site } from './hooks.js';

const SITE_CLASS: Readonly<Record<Site, ReasonClass>> = {
  expired: 'expired',
  excluded: 'excluded',
  superseded: 'superseded',
  disputed: 'disputed',
  pool: 'budget',
  required: 'budget',
  max_segments: 'max_segments',
  ranked: 'budget',
};

const SITE_NAMES: Readonly<Record<Site, string>> = {
  expired: 'expired blocks',
  excluded: 'excluded blocks',
  superseded: 'superseded blocks',
  disputed: 'disputed blocks',
  pool: 'tier and pool budget omissions',
  required: 'required blocks that do not fit',
  max_segments: 'max_segments omissions',
  ranked: 'ranked budget omissions',
};

/** The site of a reason the model wrote with the reference's spelling. */
function siteOf(reason: string, ranked: boolean): Site | undefined {
  if (ranked) return reason === SITE_REASONS.ranked ? 'ranked' : reason === SITE_REASONS.expired ? 'expired' : undefined;
  if (reason === REASON_TIER_BUDGET) return 'pool';
  if (reason === SITE_REASONS.required) return 'required';
  return (['expired', 'excluded', 'superseded', 'disputed', 'max_segments'] as const).find((s) => SITE_REASONS[s] === reason);
}

export interface SpellingEvidence {
  request: unknown;
  outcome: Outcome;
  /** The model's answer with the reference's spelling. */
  base: Answer;
}

/**
 * The implementation's spelling of each site where it differs from the
 * reference's: the reason it gives most often for the blocks the model omits
 * there, counting only reasons of the same class or of none (a reason of
 * another class is a different selection, not a spelling).
 */
export function fitSpelling(evidence: readonly SpellingEvidence[]): Partial<Record<Site, string>> {
  const votes = new Map<Site, Map<string, number>>();
  for (const e of evidence) {
    if (e.outcome.kind !== 'result') continue;
    const given = (e.outcome.value as { omissions?: unknown } | null)?.omissions;
    const mine = e.base.omissions;
    if (!Array.isArray(given) || !Array.isArray(mine)) continue;
    const theirs = new Map<unknown, unknown>();
    for (const o of given) if (typeof o === 'object' && o !== null) theirs.set((o as { block_id?: unknown }).block_id, (o as { reason?: unknown }).reason);
    const ranked = typeof e.request === 'object' && e.request !== null && (e.request as { profile?: unknown }).profile === 'ranked';
    for (const o of mine as { block_id: string; reason: string }[]) {
      const site = siteOf(o.reason, ranked);
      const r = theirs.get(o.block_id);
      if (site === undefined || typeof r !== 'string') continue;
      const cls = reasonClass(r);
      if (cls !== undefined && cls !== SITE_CLASS[site]) continue;
      const count = votes.get(site) ?? new Map<string, number>();
      count.set(r, (count.get(r) ?? 0) + 1);
      votes.set(site, count);
    }
  }
  const out: Partial<Record<Site, string>> = {};
  for (const [site, count] of votes) {
    let best = SITE_REASONS[site];
    let most = count.get(best) ?? 0;
    for (const [r, n] of count) if (n > most) [best, most] = [r, n];
    if (best !== SITE_REASONS[site]) out[site] = best;
  }
  return out;
}

/** The sentence for a spelling: which reasons, where, and why a case fails them. */
export function spellingSummary(spelling: Partial<Record<Site, string>>): string {
  const parts = (Object.entries(spelling) as [Site, string][]).map(([site, r]) =>
    reasonClass(r) === undefined
      ? `${SITE_NAMES[site]} have the reason ${JSON.stringify(r)}, which maps to no class of section 10 (CLS-1)`
      : `${SITE_NAMES[site]} are spelled ${JSON.stringify(r)} where these cases pin the originating text ` +
        `${JSON.stringify(SITE_REASONS[site])} (RES-4 accepts a code only where a case compares by class)`,
  );
  return parts.join('; ');
}

export function spellingRequirements(spelling: Partial<Record<Site, string>>): string[] {
  return Object.values(spelling).some((r) => reasonClass(r) === undefined) ? ['CLS-1', 'RES-4'] : ['RES-4'];
}
