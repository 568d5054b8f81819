import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pinned-in-rank-order',
  section: 'pinned',
  requirements: ['PIN-4'],
  summary: 'pinned blocks are rendered in ranking-key order; PIN-4 renders them first in input order',
  defects: { pinnedRenderOrder: 'rank' },
});
