import { defineDefect } from '../defect-registry.js';
import { byCodePoint } from '../hooks.js';

export default defineDefect({
  id: 'ranked-ties-by-id',
  section: 'ranked',
  requirements: ['RANK-1'],
  summary: 'in ranked, equal priorities are ordered by block_id; RANK-1 keeps their input order (a stable sort)',
  defects: { rankedTie: (x, y) => byCodePoint(x.id, y.id) },
});
