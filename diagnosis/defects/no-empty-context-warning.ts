import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-empty-context-warning',
  section: 'working_context',
  requirements: ['WC-4'],
  summary: 'no empty_context warning is given; WC-4 gives one exactly when nothing is included',
  defects: { emptyContextWarning: false },
});
