import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'signed-zero-order',
  section: 'ordering',
  requirements: ['NUM-5', 'TIER-3', 'RANK-1'],
  summary: 'priorities are in a total order that puts -0 below 0; NUM-5 says -0 equals 0',
  defects: { signedZeroOrder: true },
  when: ['valid'],
});
