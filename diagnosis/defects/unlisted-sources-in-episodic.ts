import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'unlisted-sources-in-episodic',
  section: 'tiers',
  requirements: ['TIER-1'],
  summary: 'a source the map does not list goes to the episodic tier; TIER-1 puts every other source in working',
  defects: { unlistedTier: 'episodic' },
});
