import { defineDefect } from '../defect-registry.js';
import { withBlocks } from '../hooks.js';

export default defineDefect({
  id: 'ranked-ignores-what-it-cannot-honour',
  section: 'validation',
  requirements: ['VAL-9'],
  summary: 'in profile ranked, constraints, pinned blocks and lifecycle statuses are silently ignored; VAL-9 makes such a request invalid',
  defects: {
    readRanked: (r) => {
      if (r.profile !== 'ranked') return r;
      const { constraints: _constraints, ...rest } = r;
      return withBlocks(rest, ({ pinned: _pinned, status: _status, ...b }) => b);
    },
  },
});
