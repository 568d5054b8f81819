import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'prefix-cut-in-the-pool',
  section: 'pool',
  requirements: ['TIER-7'],
  summary: 'the pool stops at the first set-aside block that does not fit; TIER-7 lets every later block still try',
  defects: { poolPrefixCut: true },
});
