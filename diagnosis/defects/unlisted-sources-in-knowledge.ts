import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'unlisted-sources-in-knowledge',
  section: 'tiers',
  requirements: ['TIER-1'],
  summary: 'a source the map does not list goes to the knowledge tier; TIER-1 puts every other source in working',
  defects: { unlistedTier: 'knowledge' },
});
