import { defineFormat } from '../registry.js';

export default defineFormat({
  name: 'json',
  metavar: 'FILE',
  help: 'the JSON report: what merge, diff and --baseline read',
  file: 'ctxconform.json',
  rank: 10,
  async render(report, path) {
    const { renderJson } = await import('../json.js');
    return [{ path, text: renderJson(report) }];
  },
});
