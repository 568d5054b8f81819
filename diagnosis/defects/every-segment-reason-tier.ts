import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'every-segment-reason-tier',
  section: 'working_context',
  requirements: ['WC-2'],
  summary: 'every segment has the reason tier; WC-2 gives pinned, required, tier or overflow by how the block was admitted',
  defects: { segmentReasons: 'all-tier' },
});
