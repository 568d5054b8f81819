import { TIERS } from '../../reference/index.js';
import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pool-tier-by-tier',
  section: 'pool',
  requirements: ['TIER-7', 'TIER-3'],
  summary: 'the set-aside blocks are offered the pool tier by tier (working first); TIER-7 offers it across tiers in ranking-key order',
  defects: { poolOrder: (aside) => TIERS.flatMap((tier) => aside.filter((b) => b.tier === tier)) },
});
