import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-undated-as-epoch',
  section: 'ranked',
  requirements: ['RANK-3'],
  summary: 'in ranked, a block without created_at is dated 1970-01-01; RANK-3 writes undated',
  defects: { rankedUndatedAsEpoch: true },
});
