/**
 * The conformance badge: a flat SVG like shields.io draws, and the shields.io
 * endpoint JSON for projects that let shields.io draw it.
 */
import { anyOnly } from '../protocol/levels.js';
import { principlesNotJudged } from '../protocol/render-template.js';
import type { Report } from '../protocol/types.js';
import { percent, score, wholePercent } from './text.js';
import { DECLARED_PROFILE, declaredConstants } from '../protocol/verdict.js';
import { xmlAttr, xmlText } from './xml.js';

export const BADGE_COLOURS = {
  brightgreen: '#4c1',
  green: '#97ca00',
  yellowgreen: '#a4a61d',
  yellow: '#dfb317',
  orange: '#fe7d37',
  red: '#e05d44',
  lightgrey: '#9f9f9f',
} as const;
export type BadgeColour = keyof typeof BADGE_COLOURS;

/** Colour by score: 100 brightgreen, >= 95 green, >= 90 yellowgreen, >= 75 yellow, >= 50 orange, else red; grey when nothing ran. */
export function badgeColour(ratio: number | undefined): BadgeColour {
  if (ratio === undefined) return 'lightgrey';
  // Thresholds apply to the percentage shown, so the colour and the number never disagree.
  const pct = wholePercent(ratio);
  if (pct >= 100) return 'brightgreen';
  if (pct >= 95) return 'green';
  if (pct >= 90) return 'yellowgreen';
  if (pct >= 75) return 'yellow';
  if (pct >= 50) return 'orange';
  return 'red';
}

export interface BadgeEndpoint {
  schemaVersion: 1;
  label: string;
  message: string;
  color: BadgeColour;
}

/** The label says when the score is not plain conformance: a run with declared constants (SPEC section 17), or of the any level alone (SPEC LVL-1). */
export function badgeData(report: Report): BadgeEndpoint {
  const r = score(report);
  const label = declaredConstants(report)
    ? `conformance (${DECLARED_PROFILE})`
    : anyOnly(report.implementation)
      ? `conformance (any design${principlesNotJudged(report.implementation.design)
          .map((n) => `, ${n.name} ${n.partly ? 'judged in part' : 'not judged'}`)
          .join('')})`
      : 'conformance';
  return { schemaVersion: 1, label, message: percent(r), color: badgeColour(r) };
}

export function renderBadgeJson(report: Report): string {
  return JSON.stringify(badgeData(report)) + '\n';
}

// Advance widths of Verdana 11px (the shields.io font) in px, for the characters a badge can hold.
const WIDTHS: Record<string, number> = {
  ' ': 3.9,
  '%': 12.3,
  '/': 4.9,
  '.': 4.4,
  '(': 5,
  ')': 5,
  '0': 7,
  '1': 7,
  '2': 7,
  '3': 7,
  '4': 7,
  '5': 7,
  '6': 7,
  '7': 7,
  '8': 7,
  '9': 7,
  a: 6.7,
  b: 6.9,
  c: 5.8,
  d: 6.9,
  e: 6.6,
  f: 3.9,
  g: 6.9,
  h: 7,
  i: 3,
  j: 3.8,
  k: 6.5,
  l: 3,
  m: 10.7,
  n: 7,
  o: 6.7,
  p: 6.9,
  q: 6.9,
  r: 4.7,
  s: 5.7,
  t: 4.3,
  u: 7,
  v: 6.5,
  w: 9,
  x: 6.5,
  y: 6.5,
  z: 5.8,
};

function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += WIDTHS[ch] ?? 7;
  return Math.round(w);
}

export function renderBadge(report: Report): string {
  const { label, message, color } = badgeData(report);
  const lw = textWidth(label) + 10;
  const mw = textWidth(message) + 10;
  const w = lw + mw;
  const fill = BADGE_COLOURS[color];
  // Text is drawn at 10x and scaled down, as shields.io does, for crisp subpixel positioning.
  const text = (s: string, x: number, width: number): string =>
    `<text aria-hidden="true" x="${x * 10}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${width * 10}">${xmlText(s)}</text>` +
    `<text x="${x * 10}" y="140" transform="scale(.1)" fill="#fff" textLength="${width * 10}">${xmlText(s)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${xmlAttr(`${label}: ${message}`)}">`,
    `<title>${xmlText(`${label}: ${message}`)}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${mw}" height="20" fill="${fill}"/><rect width="${w}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">`,
    text(label, lw / 2, lw - 10),
    text(message, lw + mw / 2, mw - 10),
    '</g></svg>',
    '',
  ].join('');
}
