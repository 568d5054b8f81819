import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-marker-for-max-segments',
  section: 'markers',
  requirements: ['MRK-1'],
  summary: 'a block cut by max_segments leaves no marker; MRK-1 marks it "over segment limit"',
  defects: { markerForMaxSegments: false },
});
