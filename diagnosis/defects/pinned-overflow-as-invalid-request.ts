import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pinned-overflow-as-invalid-request',
  section: 'pinned',
  requirements: ['PIN-2', 'ERR-1'],
  summary: 'a pinned overflow is answered invalid_request; PIN-2 requires the error pinned_overflow',
  defects: { pinnedOverflow: 'invalid_request' },
});
