import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'retrieval-warning-emitted',
  section: 'working_context',
  requirements: ['WC-4'],
  summary: 'a retrieval warning (eventual_consistency) is emitted; WC-4 says an assembler never emits it',
  defects: { retrievalWarning: true },
});
