import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-date-truncated',
  section: 'ranked',
  requirements: ['RANK-3'],
  summary: 'in ranked, a negative or fractional created_at is dated by truncating toward zero; RANK-3 takes the UTC day containing the instant (floor)',
  defects: { rankedDateTruncated: true },
});
