import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'no-required-warning',
  section: 'constraints',
  requirements: ['CON-4', 'WC-4'],
  summary: 'no required_ref_omitted warning is given; CON-4 warns once for each must_include id not included',
  defects: { requiredWarning: false },
});
