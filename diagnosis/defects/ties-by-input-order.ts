import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ties-by-input-order',
  section: 'ordering',
  requirements: ['TIER-3'],
  summary: 'blocks of equal priority are taken in input order; TIER-3 orders them by block_id',
  defects: { tieBreak: (x, y) => x.index - y.index },
});
