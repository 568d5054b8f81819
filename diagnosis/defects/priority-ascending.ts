import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'priority-ascending',
  section: 'ordering',
  requirements: ['TIER-3', 'RANK-1'],
  summary: 'blocks are taken lowest priority first; TIER-3 and RANK-1 take the highest first',
  defects: { priorityAscending: true },
  when: ['valid'],
});
