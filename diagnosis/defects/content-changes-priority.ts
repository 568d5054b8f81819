import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'content-changes-priority',
  section: 'ordering',
  requirements: ['REN-4'],
  summary: 'a block whose content says URGENT is ranked higher; REN-4 says selection is blind to content',
  defects: { rankOf: (priority, content) => (content.includes('URGENT') ? priority + 10 : priority) },
});
