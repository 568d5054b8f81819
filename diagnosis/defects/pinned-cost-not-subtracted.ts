import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pinned-cost-not-subtracted',
  section: 'pinned',
  requirements: ['PIN-3', 'TIER-9'],
  summary: 'the tiers share the whole budget beside the pinned blocks; PIN-3 gives them B = budget - pinned cost',
  defects: { pinnedCostSubtracted: false },
});
