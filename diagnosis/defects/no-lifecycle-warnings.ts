import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-lifecycle-warnings',
  section: 'lifecycle',
  requirements: ['LIF-4', 'WC-4'],
  summary: 'included disputed, superseded or stale blocks get no warning; LIF-4 gives one per block',
  defects: { lifecycleWarnings: false },
});
