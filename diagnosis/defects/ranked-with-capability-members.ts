import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ranked-with-capability-members',
  section: 'ranked',
  requirements: ['RANK-7', 'RES-1'],
  summary: 'a ranked result carries the working_context members; RANK-7 gives it exactly the five core members',
  defects: { rankedCapabilityMembers: true },
});
