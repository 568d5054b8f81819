import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'invalid-request-as-pinned-overflow',
  section: 'validation',
  requirements: ['ERR-1'],
  summary: 'an invalid request is answered with the error pinned_overflow; section 3 requires invalid_request',
  defects: { invalidAnswer: () => ({ error: { code: 'pinned_overflow', message: 'no' } }) },
});
