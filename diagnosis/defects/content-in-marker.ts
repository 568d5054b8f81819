import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'content-in-marker',
  section: 'markers',
  requirements: ['MRK-2'],
  summary: 'a marker quotes the start of the omitted content; MRK-2 says nothing of the content appears in it',
  defects: { contentInMarker: true },
});
