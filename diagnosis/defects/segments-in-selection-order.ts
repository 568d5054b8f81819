import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'segments-in-selection-order',
  section: 'working_context',
  requirements: ['WC-2'],
  summary: 'segments are listed in the order blocks were admitted; WC-2 lists them in rendered order',
  defects: { segmentsInSelectionOrder: true },
});
