import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'unlisted-sources-in-longterm',
  section: 'tiers',
  requirements: ['TIER-1'],
  summary: 'a source the map does not list goes to the longterm tier; TIER-1 puts every other source in working',
  defects: { unlistedTier: 'longterm' },
});
