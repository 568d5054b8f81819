import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'hyphens-read-as-underscores',
  section: 'tiers',
  requirements: ['TIER-1'],
  summary: 'a hyphen in a source is read as an underscore ("waf-info" as waf_info); TIER-1 matches names exactly, so "waf-info" is working',
  defects: { hyphensAsUnderscores: true },
});
