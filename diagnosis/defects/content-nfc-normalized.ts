import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'content-nfc-normalized',
  section: 'rendering',
  requirements: ['REN-4'],
  summary: 'content is NFC-normalized; REN-4 puts it in the context verbatim',
  defects: { body: (content) => content.normalize('NFC') },
});
