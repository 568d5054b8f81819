import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-header-when-empty',
  section: 'ranked',
  requirements: ['RANK-5'],
  summary: 'in ranked, the header is given when no line fits; RANK-5 makes the context "" and estimated_tokens 0',
  defects: { rankedHeaderAlways: true },
});
