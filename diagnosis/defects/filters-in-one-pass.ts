import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'filters-in-one-pass',
  section: 'constraints',
  requirements: ['TIER-8', 'CON-1', 'LIF-3'],
  summary:
    'expired, excluded and lifecycle omissions are listed together in input order; TIER-8 lists the expired first, then the excluded, then the lifecycle ones',
  defects: { filtersInOnePass: true },
  when: ['constraints', 'status'],
});
