import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'required-prefix-cut',
  section: 'constraints',
  requirements: ['CON-2'],
  summary: 'required blocks stop at the first that does not fit; CON-2 lets every later one still try',
  defects: { requiredPrefixCut: true },
});
