import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'preferences-before-priority',
  section: 'constraints',
  requirements: ['CON-6'],
  summary: 'the preferences rank before priority; CON-6 puts them between priority and block_id',
  defects: { preferencesBeforePriority: true },
});
