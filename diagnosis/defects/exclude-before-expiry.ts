import { defineDefect } from '../defect-registry.js';

export default defineDefect({
  id: 'exclude-before-expiry',
  section: 'constraints',
  requirements: ['CON-1', 'TIER-8'],
  summary: 'the exclude pass runs before the expiry pass (an expired excluded block is excluded); CON-1 runs it after, so it is expired',
  defects: { excludeBeforeExpiry: true },
});
