import { estimateTokens, RANKED_HEADER } from '../../reference/index.js';
import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-header-not-counted',
  section: 'ranked',
  requirements: ['RANK-4', 'RANK-5'],
  summary: `in ranked, the header's cost is not counted; RANK-4 starts packing at the header's ${estimateTokens(RANKED_HEADER)} tokens`,
  defects: { rankedHeaderCounted: false },
});
