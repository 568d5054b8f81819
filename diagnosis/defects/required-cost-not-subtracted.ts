import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'required-cost-not-subtracted',
  section: 'constraints',
  requirements: ['CON-2', 'TIER-9'],
  summary: 'the tiers share B without subtracting the required blocks; CON-2 shrinks B by the cost of each one admitted',
  defects: { requiredCostSubtracted: false },
});
