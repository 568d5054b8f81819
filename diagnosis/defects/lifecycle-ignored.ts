import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'lifecycle-ignored',
  section: 'lifecycle',
  requirements: ['LIF-1', 'LIF-2', 'LIF-4'],
  summary: 'block statuses are ignored (every block treated as active); LIF-1 .. LIF-4 filter and warn by status',
  defects: { readsStatus: false },
});
