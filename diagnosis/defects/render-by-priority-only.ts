import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'render-by-priority-only',
  section: 'rendering',
  requirements: ['REN-1'],
  summary: 'included blocks are rendered by (-priority, block_id), ignoring the source; REN-1 renders by (source, -priority, block_id)',
  defects: { renderOrder: 'priority' },
});
