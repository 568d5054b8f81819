import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'segment-score-is-tokens',
  section: 'working_context',
  requirements: ['WC-2'],
  summary: "a segment's score is its token count; WC-2 makes it the block's priority",
  defects: { segmentScore: 'tokens' },
});
