import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'max-segments-counts-pinned',
  section: 'pinned',
  requirements: ['CON-5', 'PIN-1'],
  summary: 'pinned blocks count toward max_segments; CON-5 caps the non-pinned blocks only',
  defects: { maxSegmentsCountsPinned: true },
});
