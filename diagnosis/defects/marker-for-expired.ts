import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'marker-for-expired',
  section: 'markers',
  requirements: ['MRK-1'],
  summary: 'expired blocks leave a marker too; MRK-1 marks only omissions of class budget or max_segments',
  defects: { markerForExpired: true },
});
