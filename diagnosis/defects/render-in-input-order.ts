import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'render-in-input-order',
  section: 'rendering',
  requirements: ['REN-1', 'REN-5'],
  summary: 'included blocks are rendered in input order; REN-1 renders by (source, -priority, block_id)',
  defects: { renderOrder: 'input' },
});
