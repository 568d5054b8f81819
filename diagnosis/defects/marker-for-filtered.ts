import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'marker-for-filtered',
  section: 'markers',
  requirements: ['MRK-1'],
  summary: 'excluded, superseded and disputed blocks leave a marker too; MRK-1 marks only omissions of class budget or max_segments',
  defects: { markerForFiltered: true },
});
