import { CHARS_PER_TOKEN, estimateTokens, RANKED_HEADER } from '../../reference/index.js';
import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-takes-declared-chars-per-token',
  section: 'constants',
  requirements: ['DECL-3', 'RANK-2'],
  summary: `profile ranked uses the declared chars_per_token; DECL-3 keeps ranked on NUM-2's ${CHARS_PER_TOKEN} (its header costs ${estimateTokens(RANKED_HEADER)})`,
  defects: { rankedTakesDeclaredCharsPerToken: true },
  declaredOnly: true,
  when: ['ranked'],
});
