import { defineFormat } from '../registry.js';

export default defineFormat({
  name: 'badge',
  metavar: 'FILE.svg',
  help: 'an SVG badge, and the shields.io endpoint JSON beside it',
  file: 'badge.svg',
  rank: 50,
  async render(report, path) {
    const { badgeJsonPath, renderBadge, renderBadgeJson } = await import('../badge.js');
    return [
      { path, text: renderBadge(report) },
      { path: badgeJsonPath(path), text: renderBadgeJson(report) },
    ];
  },
});
