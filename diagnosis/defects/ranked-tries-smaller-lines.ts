import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-tries-smaller-lines',
  section: 'ranked',
  requirements: ['RANK-4'],
  summary: 'in ranked, packing goes on past a line that does not fit; RANK-4 stops at the first that does not fit',
  defects: { rankedStopsAtMisfit: false },
});
