import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'expired-pinned-kept',
  section: 'expiry',
  requirements: ['PIN-5', 'EXP-2'],
  summary: 'an expired pinned block is still admitted; PIN-5 and EXP-2 omit it as expired',
  defects: { expiredPinnedKept: true },
  when: ['pinned'],
});
