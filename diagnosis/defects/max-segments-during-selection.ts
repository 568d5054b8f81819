import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'max-segments-during-selection',
  section: 'constraints',
  requirements: ['CON-5'],
  summary:
    'max_segments stops admitting once the cap is reached (tier blocks before pool blocks); CON-5 caps after selection, keeping the first by the ranking key',
  defects: { maxSegmentsCut: 'during' },
});
