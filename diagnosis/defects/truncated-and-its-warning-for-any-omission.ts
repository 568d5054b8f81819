import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'truncated-and-its-warning-for-any-omission',
  section: 'working_context',
  requirements: ['WC-3', 'WC-4'],
  summary: 'truncated and the truncated warning are given for any omission; WC-3 and WC-4 give them only for a budget or max_segments omission',
  defects: { truncatedBy: 'any', truncatedWarningFollowsFlag: true },
});
