import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'expired-omissions-dropped',
  section: 'omissions',
  requirements: ['RES-2', 'EXP-2'],
  summary: 'expired blocks are left out of omissions; RES-2 lists every block in included or omissions',
  defects: { listsOmission: (o) => o.reason !== 'expired' },
});
