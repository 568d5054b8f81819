import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'rounded-estimate',
  section: 'estimate',
  requirements: ['NUM-2'],
  summary: 'the estimate rounds to the nearest integer; NUM-2 is max(1, floor(code points / 4))',
  defects: { rounding: 'round half up' },
});
