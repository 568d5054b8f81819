/** SPEC section 10: the reason-class normalization table (CLS-1). */

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
