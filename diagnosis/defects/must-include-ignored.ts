import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'must-include-ignored',
  section: 'constraints',
  requirements: ['CON-2', 'CON-4'],
  summary: 'must_include is ignored; CON-2 admits the listed blocks before the tiers',
  defects: { mustInclude: () => [] },
});
