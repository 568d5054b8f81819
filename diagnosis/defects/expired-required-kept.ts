import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'expired-required-kept',
  section: 'expiry',
  requirements: ['EXP-2', 'CON-2'],
  summary: 'an expired block listed in must_include is still admitted; EXP-2 omits it as expired',
  defects: { expiredRequiredKept: true },
  when: ['constraints'],
});
