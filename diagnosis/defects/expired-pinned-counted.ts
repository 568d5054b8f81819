import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'expired-pinned-counted',
  section: 'expiry',
  requirements: ['PIN-5', 'PIN-2'],
  summary: 'expired pinned blocks count toward the pinned overflow; PIN-5 says an expired pinned block costs nothing',
  defects: { expiredPinnedCounted: true },
  when: ['pinned'],
});
