import { defineFormat } from '../registry.js';

export default defineFormat({
  name: 'markdown',
  metavar: 'FILE',
  help: 'Markdown for a CI step summary or a merge-request note',
  file: 'summary.md',
  rank: 30,
  async render(report, path) {
    const { renderMarkdown } = await import('../markdown.js');
    return [{ path, text: renderMarkdown(report) }];
  },
});
