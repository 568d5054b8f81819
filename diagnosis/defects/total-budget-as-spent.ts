import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'total-budget-as-spent',
  section: 'omissions',
  requirements: ['RES-3'],
  summary: "total_budget reports the tokens spent; RES-3 says it is the request's budget",
  defects: { totalBudget: (_budget, estimated) => estimated },
});
