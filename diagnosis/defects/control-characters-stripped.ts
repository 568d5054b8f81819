import { defineDefect } from '../defect-registry.js';

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export default defineDefect({
  id: 'control-characters-stripped',
  section: 'rendering',
  requirements: ['REN-4'],
  summary: 'control characters are stripped from content; REN-4 puts it in the context verbatim',
  defects: { body: (content) => content.replace(CONTROL, '') },
});
