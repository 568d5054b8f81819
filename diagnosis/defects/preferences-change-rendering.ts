import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'preferences-change-rendering',
  section: 'constraints',
  requirements: ['CON-6', 'REN-1'],
  summary: 'the preferences change the render order too; CON-6 changes selection only, rendering stays REN-1',
  defects: { preferencesInRender: true },
});
