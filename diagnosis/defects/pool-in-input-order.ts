import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pool-in-input-order',
  section: 'pool',
  requirements: ['TIER-7', 'TIER-3'],
  summary: 'the set-aside blocks are offered the pool in input order; TIER-7 offers it in ranking-key order',
  defects: { poolOrder: (aside) => aside.slice().sort((x, y) => x.index - y.index) },
});
