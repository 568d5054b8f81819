import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'case-insensitive-sources',
  section: 'tiers',
  requirements: ['TIER-1'],
  summary: 'source names are matched without case ("Memory" read as memory); TIER-1 is case-sensitive, so "Memory" is working',
  defects: { caseInsensitiveSources: true },
});
