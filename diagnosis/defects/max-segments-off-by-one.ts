import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'max-segments-off-by-one',
  section: 'constraints',
  requirements: ['CON-5'],
  summary: 'max_segments keeps one block more than asked; CON-5 keeps exactly max_segments',
  defects: { maxSegments: (asked) => (asked === null ? null : asked + 1) },
});
