import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'pinned-included-in-id-order',
  section: 'pinned',
  requirements: ['PIN-4'],
  summary: 'included lists the pinned blocks in id order; PIN-4 lists them, as it renders them, in input order',
  // Sorted as JavaScript sorts strings (UTF-16 code units), the order a careless sort() gives.
  defects: { includedOrder: (ids, pinned) => [...ids.filter((id) => pinned.has(id)).sort(), ...ids.filter((id) => !pinned.has(id))] },
});
