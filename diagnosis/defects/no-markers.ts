import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-markers',
  section: 'markers',
  requirements: ['MRK-1'],
  summary: 'omission_markers is declared but no marker is rendered; MRK-1 leaves one for each block omitted for budget or segment count',
  defects: { markers: false },
});
