import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ttl-zero-expires',
  section: 'expiry',
  requirements: ['EXP-1'],
  summary: 'ttl_seconds 0 expires the block (at once); EXP-1 says 0 means it never expires',
  defects: { expires: (ttl) => ttl >= 0 },
});
