import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'lifecycle-before-exclude',
  section: 'lifecycle',
  requirements: ['LIF-3', 'TIER-8'],
  summary: 'the lifecycle pass runs before the exclude pass; LIF-3 runs it after, so an excluded superseded block is excluded',
  defects: { lifecycleBeforeExclude: true },
});
