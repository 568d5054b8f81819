import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'inclusive-expiry',
  section: 'expiry',
  requirements: ['EXP-1'],
  summary: 'a block expires at now == created_at + ttl_seconds; EXP-1 expires it only strictly after',
  defects: { pastEnd: (now, end) => now >= end },
});
