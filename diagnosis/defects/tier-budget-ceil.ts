import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'tier-budget-ceil',
  section: 'tiers',
  requirements: ['NUM-3', 'TIER-2'],
  summary: 'a tier budget is B * pct / 100 rounded up; TIER-2 takes the floor',
  defects: { tierBudget: (budget, pct) => Math.ceil((budget * pct) / 100) },
});
