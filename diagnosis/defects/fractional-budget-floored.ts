import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'fractional-budget-floored',
  section: 'validation',
  requirements: ['VAL-2'],
  summary: 'a fractional budget is rounded down and answered; VAL-2 accepts integers only (120.0 is 120, 120.5 is invalid)',
  defects: {
    readBudget: (r) => (typeof r.budget === 'number' && Number.isFinite(r.budget) && r.budget >= 0 ? { ...r, budget: Math.floor(r.budget) } : r),
  },
});
