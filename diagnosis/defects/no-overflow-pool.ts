import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-overflow-pool',
  section: 'pool',
  requirements: ['TIER-7', 'TIER-6'],
  summary: 'a block that does not fit its tier is omitted; TIER-7 offers the set-aside blocks what the tiers left unspent (the overflow pool)',
  defects: { overflowPool: false },
});
