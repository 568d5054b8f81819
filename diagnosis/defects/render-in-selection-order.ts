import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'render-in-selection-order',
  section: 'rendering',
  requirements: ['REN-1'],
  summary: 'included blocks are rendered in the order they were admitted; REN-1 renders by (source, -priority, block_id)',
  defects: { renderOrder: 'selection' },
});
