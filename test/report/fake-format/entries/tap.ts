import { defineFormat } from '../../../../report/registry.js';

export default defineFormat({
  name: 'tap',
  metavar: 'FILE',
  help: 'TAP lines, a format this test makes up',
  file: 'results.tap',
  rank: 60,
  async render(report, path) {
    const { renderTap } = await import('../tap-writer.js');
    return [{ path, text: renderTap(report) }];
  },
});
