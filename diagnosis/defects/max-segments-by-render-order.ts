import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'max-segments-by-render-order',
  section: 'constraints',
  requirements: ['CON-5'],
  summary: 'max_segments keeps the first blocks in render order; CON-5 keeps the first by the ranking key',
  defects: { maxSegmentsCut: 'render-order' },
});
