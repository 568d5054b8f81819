import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'superseded-included-by-default',
  section: 'lifecycle',
  requirements: ['LIF-1', 'CON-7'],
  summary: 'superseded blocks are included unless asked otherwise; CON-7 defaults include_superseded to false',
  defects: { includeSupersededByDefault: true },
});
