import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'max-segments-before-selection',
  section: 'constraints',
  requirements: ['CON-5'],
  summary: 'max_segments cuts the candidates before the budget chooses; CON-5 caps after selection, so a block omitted for budget takes no place under the cap',
  defects: { maxSegmentsCut: 'before' },
});
