import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'omissions-in-input-order',
  section: 'omissions',
  requirements: ['TIER-8'],
  summary: 'omissions are listed in input order; TIER-8 lists expired first, then the filters, then the budget omissions in pool order',
  defects: { omissionOrder: 'input' },
  when: ['tiered'],
});
