import { defineDefect } from '../defect-registry.js';
import { withBlocks } from '../hooks.js';

export default defineDefect({
  id: 'negative-ttl-accepted',
  section: 'validation',
  requirements: ['VAL-5'],
  summary: 'a negative ttl_seconds is accepted as never expiring; VAL-5 requires ttl_seconds >= 0',
  defects: {
    readTtl: (r) => withBlocks(r, (b) => (typeof b.ttl_seconds === 'number' && b.ttl_seconds < 0 ? { ...b, ttl_seconds: 0 } : b)),
  },
});
