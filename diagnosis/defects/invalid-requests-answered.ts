import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'invalid-requests-answered',
  section: 'validation',
  requirements: ['ERR-1', 'ERR-2', 'VAL-1'],
  summary: 'an invalid request is answered with an empty result; section 3 requires the error invalid_request',
  defects: { invalidAnswer: () => ({ context: '', included: [], estimated_tokens: 0, total_budget: 0, omissions: [] }) },
});
