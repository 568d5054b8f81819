import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-line-cost-of-content',
  section: 'ranked',
  requirements: ['RANK-3'],
  summary: 'in ranked, a line costs the estimate of its content; RANK-3 costs the whole line, "- [date] " included',
  defects: { rankedCostedText: (_line, content) => content },
});
