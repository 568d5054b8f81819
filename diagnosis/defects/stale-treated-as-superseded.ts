import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'stale-treated-as-superseded',
  section: 'lifecycle',
  requirements: ['LIF-3', 'LIF-4'],
  summary: 'a stale block is treated as superseded; LIF-3 never omits a stale block, and LIF-4 warns stale_consolidation',
  defects: { staleAsSuperseded: true },
});
