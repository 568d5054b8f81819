/**
 * The reason-class table (SPEC section 10, CLS-1) and the any level's three
 * further classes (ANY-4): the one reading of an omission's reason that the
 * judge, the properties, the diagnosis and the principles share.
 */
export type ReasonClass = 'expired' | 'excluded' | 'superseded' | 'disputed' | 'budget' | 'max_segments';

const REASON_CLASSES: Readonly<Record<string, ReasonClass>> = Object.freeze({
  expired: 'expired',
  excluded: 'excluded',
  superseded: 'superseded',
  disputed: 'disputed',
  'tier budget exhausted; overflow pool exhausted': 'budget',
  budget_exhausted: 'budget',
  budget: 'budget',
  max_segments: 'max_segments',
});

/** The class of a reason, or undefined when the table has none (a CLS-1 failure). */
export function reasonClass(reason: unknown): ReasonClass | undefined {
  return typeof reason === 'string' && Object.hasOwn(REASON_CLASSES, reason) ? REASON_CLASSES[reason] : undefined;
}

/** The drops other designs make legally, each named (ANY-4); not in section 10's table, so never legal for `tiered` or `ranked`. */
export type OtherDesignClass = 'duplicate' | 'source_cap' | 'score_floor';
const OTHER_DESIGN_CLASSES: readonly string[] = ['duplicate', 'source_cap', 'score_floor'];

/** The class of an omission reason at the any level: section 10's table and ANY-4's three. */
export function anyReasonClass(reason: unknown): ReasonClass | OtherDesignClass | undefined {
  return reasonClass(reason) ?? (typeof reason === 'string' && OTHER_DESIGN_CLASSES.includes(reason) ? (reason as OtherDesignClass) : undefined);
}
