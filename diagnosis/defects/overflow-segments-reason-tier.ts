import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'overflow-segments-reason-tier',
  section: 'working_context',
  requirements: ['WC-2'],
  summary: 'a block admitted from the overflow pool has the segment reason tier; WC-2 gives it overflow',
  defects: { segmentReasons: 'overflow-as-tier' },
});
