import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'required-forced',
  section: 'constraints',
  requirements: ['CON-2', 'CON-3', 'TIER-9'],
  summary: 'required blocks are admitted even when they do not fit; CON-3 omits a required block that does not fit',
  defects: { requiredForced: true },
});
