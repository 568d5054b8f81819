import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-required-warning-for-unknown-ids',
  section: 'constraints',
  requirements: ['CON-4'],
  summary: 'a must_include id that names no block gets no required_ref_omitted warning; CON-4 warns for every id not included, whatever the reason',
  defects: { requiredWarningNeedsBlock: true },
});
