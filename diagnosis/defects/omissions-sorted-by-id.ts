import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'omissions-sorted-by-id',
  section: 'omissions',
  requirements: ['TIER-8'],
  summary: 'omissions are listed sorted by block_id; TIER-8 lists expired first (input order), then the filters, then the budget omissions in pool order',
  defects: { omissionOrder: 'by-id' },
});
