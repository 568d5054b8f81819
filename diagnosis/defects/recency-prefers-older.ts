import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'recency-prefers-older',
  section: 'constraints',
  requirements: ['CON-6'],
  summary: 'prefer_recency ranks older blocks first; CON-6 adds -created_at, newest first',
  defects: { recencyAscending: true },
});
