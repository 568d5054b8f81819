import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pinned-rendered-with-the-rest',
  section: 'pinned',
  requirements: ['PIN-4'],
  summary: 'pinned blocks are rendered among the others in (source, -priority, block_id) order; PIN-4 renders them first, in input order',
  defects: { pinnedRenderOrder: 'with-rest' },
});
