import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'budget-marker-for-max-segments',
  section: 'markers',
  requirements: ['MRK-2'],
  summary: 'a block cut by max_segments is marked "over token budget"; MRK-2 marks it "over segment limit"',
  defects: { budgetMarkerForSegments: true },
});
