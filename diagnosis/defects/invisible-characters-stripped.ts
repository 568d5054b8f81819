import { defineDefect } from '../defect-registry.js';

const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g;

export default defineDefect({
  id: 'invisible-characters-stripped',
  section: 'rendering',
  requirements: ['REN-4'],
  summary: 'zero-width and bidi characters are stripped from content; REN-4 puts it in the context verbatim',
  defects: { body: (content) => content.replace(INVISIBLE, '') },
});
