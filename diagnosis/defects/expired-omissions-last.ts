import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'expired-omissions-last',
  section: 'omissions',
  requirements: ['TIER-8', 'EXP-2'],
  summary: 'expired omissions are listed after the others; TIER-8 lists them first',
  defects: { omissionOrder: 'expired-last' },
  when: ['tiered'],
});
