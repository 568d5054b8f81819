import { badgeJsonPath } from '../badge-path.js';
import { defineFormat } from '../registry.js';

export default defineFormat({
  name: 'badge',
  metavar: 'FILE.svg',
  help: 'an SVG badge, and the shields.io endpoint JSON beside it',
  file: 'badge.svg',
  rank: 50,
  paths: (path) => [path, badgeJsonPath(path)],
  async render(report, path) {
    const { renderBadge, renderBadgeJson } = await import('../badge.js');
    return [
      { path, text: renderBadge(report) },
      { path: badgeJsonPath(path), text: renderBadgeJson(report) },
    ];
  },
});
