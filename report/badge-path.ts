/** The shields.io endpoint JSON written beside a badge: `F.svg` gives `F.json`. */
export function badgeJsonPath(badge: string): string {
  return (badge.endsWith('.svg') ? badge.slice(0, -4) : badge) + '.json';
}
