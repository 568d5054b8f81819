import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'markers-after-everything',
  section: 'markers',
  requirements: ['MRK-3'],
  summary: 'the markers are gathered at the end of the context; MRK-3 puts each where its block would have rendered',
  defects: { markerPlacement: 'last' },
});
