import { defineFormat } from '../registry.js';

export default defineFormat({
  name: 'html',
  metavar: 'FILE',
  help: 'one page for people: opens offline, filters, diffs',
  file: 'report.html',
  rank: 40,
  async render(report, path, options) {
    const { renderHtml } = await import('../html.js');
    return [{ path, text: renderHtml(report, options.tokens ? { tokens: options.tokens } : {}) }];
  },
});
