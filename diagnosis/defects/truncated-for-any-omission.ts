import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'truncated-for-any-omission',
  section: 'working_context',
  requirements: ['WC-3'],
  summary: 'truncated is true for any omission; WC-3 makes it true only for a budget or max_segments omission',
  defects: { truncatedBy: 'any' },
});
