import { defineDefect } from '../defect-registry.js';
import { withBlocks } from '../hooks.js';

export default defineDefect({
  id: 'status-case-insensitive',
  section: 'validation',
  requirements: ['VAL-5'],
  summary: 'a status is matched without case ("Active" read as active); VAL-5 takes the four statuses exactly',
  defects: {
    readStatus: (r) => withBlocks(r, (b) => (typeof b.status === 'string' ? { ...b, status: b.status.toLowerCase() } : b)),
  },
});
