import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'required-warning-per-listing',
  section: 'constraints',
  requirements: ['CON-4'],
  summary: 'an id listed twice in must_include gets two required_ref_omitted warnings; CON-4 gives one per id',
  defects: { requiredWarningPerListing: true },
});
