import { defineDefect } from '../defect-registry.js';
import { isObject } from '../json-object.js';

export default defineDefect({
  id: 'duplicate-ids-deduplicated',
  section: 'validation',
  requirements: ['VAL-4'],
  summary: 'a repeated block_id is deduplicated (the first block kept) instead of refused; VAL-4 makes the request invalid',
  defects: {
    readDuplicates: (r) => {
      if (!Array.isArray(r.blocks)) return r;
      const seen = new Set<unknown>();
      const first = (b: unknown): boolean => {
        if (!isObject(b) || !('block_id' in b)) return true;
        if (seen.has(b.block_id)) return false;
        seen.add(b.block_id);
        return true;
      };
      return { ...r, blocks: r.blocks.filter(first) };
    },
  },
});
