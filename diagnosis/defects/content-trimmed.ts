import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'content-trimmed',
  section: 'rendering',
  requirements: ['REN-4'],
  summary: 'content is trimmed of surrounding whitespace; REN-4 puts it in the context verbatim',
  defects: { body: (content) => content.trim() },
});
