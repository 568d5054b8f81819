import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'filters-spare-pinned',
  section: 'pinned',
  requirements: ['PIN-5'],
  summary: 'exclude and the lifecycle rules do not apply to pinned blocks; PIN-5 applies them to pinned blocks as to any other',
  defects: { filtersSparePinned: true },
});
