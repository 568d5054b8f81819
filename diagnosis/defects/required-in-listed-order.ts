import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'required-in-listed-order',
  section: 'constraints',
  requirements: ['CON-2'],
  summary: 'required blocks are admitted in must_include order; CON-2 admits them in ranking-key order',
  defects: { requiredInListedOrder: true },
});
