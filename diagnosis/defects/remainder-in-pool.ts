import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'remainder-in-pool',
  section: 'pool',
  requirements: ['TIER-6'],
  summary: 'the rounding remainder B - sum(tier budgets) is added to the overflow pool; TIER-6 keeps it out',
  defects: { remainderInPool: true },
});
