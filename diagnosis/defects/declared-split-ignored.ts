import { TIER_PERCENT } from '../../reference/index.js';
import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'declared-split-ignored',
  section: 'constants',
  requirements: ['DECL-2', 'TIER-2'],
  summary:
    `the declared tier_fractions are not used (the split is ` +
    `${TIER_PERCENT.working}/${TIER_PERCENT.episodic}/${TIER_PERCENT.longterm}/${TIER_PERCENT.knowledge}); DECL-2 reads TIER-2 with the declared shares`,
  defects: { readsDeclaredSplit: false },
  declaredOnly: true,
  when: ['declared'],
});
