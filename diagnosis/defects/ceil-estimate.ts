import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ceil-estimate',
  section: 'estimate',
  requirements: ['NUM-2'],
  summary: 'the estimate rounds up (ceil); NUM-2 is max(1, floor(code points / 4))',
  defects: { rounding: 'ceil' },
});
