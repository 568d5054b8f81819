import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'max-segments-ignored',
  section: 'constraints',
  requirements: ['CON-5'],
  summary: 'max_segments is ignored; CON-5 caps the non-pinned included blocks',
  defects: { maxSegments: () => null },
});
