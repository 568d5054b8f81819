import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'prefix-cut-in-a-tier',
  section: 'tiers',
  requirements: ['TIER-4'],
  summary: 'a tier stops at its first block that does not fit; TIER-4 lets every later block of the tier still try',
  defects: { prefixCut: true },
});
