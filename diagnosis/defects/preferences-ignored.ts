import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'preferences-ignored',
  section: 'constraints',
  requirements: ['CON-6'],
  summary: 'prefer_high_confidence and prefer_recency are ignored; CON-6 adds them to the ranking key',
  defects: { preferences: () => ({ prefer_recency: false, prefer_high_confidence: false }) },
});
