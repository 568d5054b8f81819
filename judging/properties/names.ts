/**
 * The properties' names in catalogue order, apart from the catalogue: a
 * --filter is checked against them (cli/filter-option.ts), and the catalogue
 * loads fast-check and every property, which a run of golden cases alone does
 * not need. test/properties/names.test.ts holds the two lists equal.
 */
export const PROPERTY_NAMES: readonly string[] = [
  'differential',
  'partition',
  'budget',
  'whole-blocks',
  'expired-never-included',
  'content-blindness',
  'order-independence',
  'determinism',
  'invalid-requests',
  'unknown-members',
  'any-whole-blocks',
  'any-budget',
  'any-accounting',
  'any-expired',
  'any-pinned',
  'any-content-blindness',
];
