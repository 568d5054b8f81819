import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'utf16-id-order',
  section: 'ordering',
  requirements: ['NUM-4', 'TIER-3', 'REN-1'],
  summary: 'block ids are compared by UTF-16 code units; NUM-4 orders strings by code points (U+FF5E before U+1F600)',
  defects: { compareIds: (a, b) => (a < b ? -1 : a > b ? 1 : 0) },
});
