import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'declared-sources-ignored',
  section: 'constants',
  requirements: ['DECL-2', 'TIER-1'],
  summary: 'the declared source_to_tier is not used; DECL-2 reads TIER-1 with the declared map',
  defects: { readsDeclaredSources: false },
  declaredOnly: true,
  when: ['declared'],
});
