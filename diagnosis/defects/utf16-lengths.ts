import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'utf16-lengths',
  section: 'counting',
  requirements: ['NUM-1', 'NUM-2'],
  summary: 'lengths are counted in UTF-16 code units (an emoji counts 2); NUM-1 counts code points',
  defects: { length: (text) => text.length },
});
