import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'markers-before-everything',
  section: 'markers',
  requirements: ['MRK-3'],
  summary: 'the markers are gathered at the top of the context; MRK-3 puts each where its block would have rendered, after the pinned blocks',
  defects: { markerPlacement: 'first' },
});
