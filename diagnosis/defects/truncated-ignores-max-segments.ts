import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'truncated-ignores-max-segments',
  section: 'working_context',
  requirements: ['WC-3'],
  summary: 'truncated is false when only max_segments left blocks out; WC-3 makes it true for a max_segments omission too',
  defects: { truncatedCountsMaxSegments: false },
});
