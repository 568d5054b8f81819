import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pinned-ignored',
  section: 'pinned',
  requirements: ['PIN-1', 'PIN-3', 'PIN-4'],
  summary: 'pinned: true is ignored, the block is ranked like any other; PIN-1 admits live pinned blocks first',
  defects: { readsPinned: false },
});
