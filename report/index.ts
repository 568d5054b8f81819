/**
 * Writes the report formats a run asked for. The writers are pure
 * (`render<Format>(report): string`); this is the only module with file I/O.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Report } from '../protocol/types.js';
import { renderBadge, renderBadgeJson } from './badge.js';
import { renderHtml } from './html.js';
import type { HtmlOptions } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { renderMatrixJson } from './matrix.js';
import type { Matrix } from './matrix.js';
import { renderMatrixHtml } from './matrix-html.js';
import { renderMatrixMarkdown } from './matrix-markdown.js';

export type { Report } from '../protocol/types.js';
export { renderBadge, renderBadgeJson, badgeColour, badgeData } from './badge.js';
export { renderHtml } from './html.js';
export type { HtmlOptions } from './html.js';
export { renderJson } from './json.js';
export { renderJunit } from './junit.js';
export { renderMarkdown } from './markdown.js';
export { verdict, verdictLine, score, percent } from './text.js';
export { buildMatrix, matrixSummary, renderMatrixJson } from './matrix.js';
export type { Matrix, MatrixInput, MatrixSummary } from './matrix.js';
export { renderMatrixHtml } from './matrix-html.js';
export { renderMatrixMarkdown } from './matrix-markdown.js';

export interface ReportTargets {
  json?: string;
  junit?: string;
  markdown?: string;
  html?: string;
  badge?: string;
}

/** Where the shields.io endpoint JSON goes for a badge path: `badge.svg` -> `badge.json`. */
export function badgeJsonPath(badge: string): string {
  return (badge.endsWith('.svg') ? badge.slice(0, -4) : badge) + '.json';
}

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** Write each requested format, creating parent directories; returns the paths written. */
export function writeReports(report: Report, targets: ReportTargets, options: HtmlOptions = {}): string[] {
  const written: string[] = [];
  if (targets.json) written.push(write(targets.json, renderJson(report)));
  if (targets.junit) written.push(write(targets.junit, renderJunit(report)));
  if (targets.markdown) written.push(write(targets.markdown, renderMarkdown(report)));
  if (targets.html) written.push(write(targets.html, renderHtml(report, options)));
  if (targets.badge) {
    written.push(write(targets.badge, renderBadge(report)));
    written.push(write(badgeJsonPath(targets.badge), renderBadgeJson(report)));
  }
  return written;
}

export interface MatrixTargets {
  json?: string;
  markdown?: string;
  html?: string;
}

/** Write each requested format of a matrix, creating parent directories; returns the paths written. */
export function writeMatrix(matrix: Matrix, targets: MatrixTargets, kitVersion: string): string[] {
  const written: string[] = [];
  if (targets.json) written.push(write(targets.json, renderMatrixJson(matrix, kitVersion)));
  if (targets.markdown) written.push(write(targets.markdown, renderMatrixMarkdown(matrix)));
  if (targets.html) written.push(write(targets.html, renderMatrixHtml(matrix)));
  return written;
}
