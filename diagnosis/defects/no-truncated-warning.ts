import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-truncated-warning',
  section: 'working_context',
  requirements: ['WC-4'],
  summary: 'no truncated warning is given; WC-4 gives one exactly when truncated is true',
  defects: { truncatedWarning: false },
});
