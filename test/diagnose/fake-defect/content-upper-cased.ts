import { defineDefect } from '../../../diagnosis/defect-registry.js';

/** A made-up defect, its hook override and its entry in this one module (test/diagnose/defect-registry.test.ts). */
export default defineDefect({
  id: 'content-upper-cased',
  section: 'rendering',
  requirements: ['REN-4'],
  summary: 'content is upper-cased; REN-4 puts it in the context verbatim',
  defects: { body: (content) => content.toUpperCase() },
});
