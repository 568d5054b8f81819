import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'truncating-fit',
  section: 'tiers',
  requirements: ['TIER-5'],
  summary: 'a block too large for what is left of the pool is cut to fit; TIER-5 admits blocks whole or not at all',
  defects: { truncatingFit: true },
});
