import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pinned-and-required-as-required',
  section: 'working_context',
  requirements: ['WC-2'],
  summary: 'a block both pinned and required has the segment reason required; WC-2 admits it as pinned',
  defects: { segmentReasons: 'required-over-pinned' },
});
