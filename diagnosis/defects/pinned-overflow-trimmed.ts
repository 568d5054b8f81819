import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pinned-overflow-trimmed',
  section: 'pinned',
  requirements: ['PIN-2', 'ERR-2'],
  summary: 'pinned blocks that overflow the budget are dropped until the rest fit; PIN-2 answers pinned_overflow, no partial context',
  defects: { pinnedOverflow: 'trim' },
});
