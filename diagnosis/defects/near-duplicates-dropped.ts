import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'near-duplicates-dropped',
  section: 'ordering',
  requirements: ['REN-4', 'RES-2'],
  summary: 'of two blocks of one source whose contents begin alike, the lower-ranked is dropped; REN-4 says selection is blind to content',
  defects: { dropsNearDuplicates: true },
});
