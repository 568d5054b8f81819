import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'required-omissions-after-the-pool',
  section: 'constraints',
  requirements: ['CON-3', 'TIER-8'],
  summary: 'required blocks that do not fit are listed after the tier budget omissions; CON-3 lists them before',
  defects: { requiredOmissionsAfterPool: true },
});
