import { defineFormat } from '../registry.js';

export default defineFormat({
  name: 'junit',
  metavar: 'FILE',
  help: 'JUnit XML for CI test tabs',
  file: 'junit.xml',
  rank: 20,
  async render(report, path) {
    const { renderJunit } = await import('../junit.js');
    return [{ path, text: renderJunit(report) }];
  },
});
