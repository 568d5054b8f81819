import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'utf8-lengths',
  section: 'counting',
  requirements: ['NUM-1', 'NUM-2'],
  summary: 'lengths are counted in UTF-8 bytes; NUM-1 counts code points',
  defects: { length: (text) => Buffer.byteLength(text, 'utf8') },
});
