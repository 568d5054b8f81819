import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'disputed-omitted-by-default',
  section: 'lifecycle',
  requirements: ['LIF-2', 'CON-7'],
  summary: 'disputed blocks are omitted unless asked otherwise; CON-7 defaults include_disputed to true',
  defects: { includeDisputedByDefault: false },
});
