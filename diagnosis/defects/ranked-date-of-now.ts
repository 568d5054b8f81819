import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-date-of-now',
  section: 'ranked',
  requirements: ['RANK-3'],
  summary: "in ranked, a line is dated with the request's now; RANK-3 dates it with the block's created_at",
  defects: { rankedDateFromNow: true },
});
