import { defineDefect } from '../defect-registry.js';
import { specHeader } from '../hooks.js';

export default defineDefect({
  id: 'header-counted',
  section: 'estimate',
  requirements: ['NUM-2'],
  summary: 'a block\'s cost counts its header "[source · id]" too; NUM-2 counts the content only',
  defects: { costedText: (b) => specHeader(b) + b.content },
  when: ['tiered'],
});
