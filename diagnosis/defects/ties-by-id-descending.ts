import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'ties-by-id-descending',
  section: 'ordering',
  requirements: ['TIER-3'],
  summary: 'blocks of equal priority are taken by block_id descending; TIER-3 orders them by block_id ascending',
  defects: { tieBreak: (x, y, byId) => byId(y.id, x.id) },
});
