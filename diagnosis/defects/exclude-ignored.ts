import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'exclude-ignored',
  section: 'constraints',
  requirements: ['CON-1'],
  summary: 'exclude is ignored; CON-1 omits the listed blocks as excluded',
  defects: { exclude: () => [] },
});
