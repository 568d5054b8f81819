import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-stale-warning',
  section: 'lifecycle',
  requirements: ['LIF-4'],
  summary: 'an included stale block gets no stale_consolidation warning; LIF-4 gives one',
  defects: { staleWarning: false },
});
