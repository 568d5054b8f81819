import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'preferences-swapped',
  section: 'constraints',
  requirements: ['CON-6'],
  summary: 'prefer_recency and prefer_high_confidence are read for each other; CON-6 ranks by confidence for the one and by created_at for the other',
  defects: { preferences: (p) => ({ prefer_recency: p.prefer_high_confidence, prefer_high_confidence: p.prefer_recency }) },
});
