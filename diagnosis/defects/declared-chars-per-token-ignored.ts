import { CHARS_PER_TOKEN } from '../../reference/index.js';
import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'declared-chars-per-token-ignored',
  section: 'constants',
  requirements: ['DECL-2', 'NUM-2'],
  summary: `the declared chars_per_token is not used (the estimate divides by ${CHARS_PER_TOKEN}); DECL-2 reads NUM-2 with the declared divisor`,
  defects: { readsDeclaredCharsPerToken: false },
  declaredOnly: true,
  when: ['declared'],
});
