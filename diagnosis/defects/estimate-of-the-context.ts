import { SPEC_COUNT } from '../../reference/index.js';
import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'estimate-of-the-context',
  section: 'omissions',
  requirements: ['TIER-9'],
  summary: 'estimated_tokens is the estimate of the whole context, headers included; TIER-9 sums the costs of the included blocks',
  // The whole context, in UTF-16 units, at NUM-2's characters per token, at least 1.
  defects: { estimate: (_spent, context) => Math.max(1, Math.floor(context.length / SPEC_COUNT.charsPerToken)) },
  when: ['tiered'],
});
