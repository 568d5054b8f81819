import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-undated-never-expires',
  section: 'ranked',
  requirements: ['RANK-6'],
  summary: 'in ranked, an undated block never expires; RANK-6 expires it as if created_at were 0',
  defects: { rankedTtl: (ttl, dated) => (dated ? ttl : 0) },
});
