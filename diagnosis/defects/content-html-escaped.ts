import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'content-html-escaped',
  section: 'rendering',
  requirements: ['REN-4'],
  summary: 'content is HTML-escaped (& < > as entities); REN-4 puts it in the context verbatim',
  defects: { body: (content) => content.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') },
});
