import { defineDefect } from '../defect-registry.js';
import { isObject } from '../json-object.js';
import { withBlocks } from '../hooks.js';
import type { Rec } from '../hooks.js';

/** The object without its null members; max_segments may be null (REQ-4), so it keeps it. */
const dropNulls = (o: Rec): Rec => Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== null || k === 'max_segments'));

export default defineDefect({
  id: 'null-read-as-absent',
  section: 'validation',
  requirements: ['REQ-4', 'VAL-5', 'VAL-6', 'VAL-7'],
  summary: 'a member given as null is read as absent and takes its default; REQ-4 says null is a value, invalid for every optional member but max_segments',
  defects: {
    readNulls: (request) => {
      const r = dropNulls(request);
      return withBlocks(isObject(r.constraints) ? { ...r, constraints: dropNulls(r.constraints) } : r, dropNulls);
    },
  },
});
