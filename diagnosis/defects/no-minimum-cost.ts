import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-minimum-cost',
  section: 'estimate',
  requirements: ['NUM-2'],
  summary: 'a short or empty content costs 0; NUM-2 makes every block cost at least 1',
  defects: { minimumCost: 0 },
});
