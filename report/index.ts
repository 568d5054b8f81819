/**
 * Writes the report formats a run asked for. The writers are pure
 * (`render<Format>(report): string`); this is the only module with file I/O.
 */
import type { Report } from '../protocol/types.js';
import { WriteFileError, writeFileNoFollow } from '../protocol/write-file.js';
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

export { WriteFileError } from '../protocol/write-file.js';

/** What writing a set of files came to: each file is tried, whatever became of the others. */
export interface WriteOutcome {
  written: string[];
  failed: WriteFileError[];
}

/** Each file in turn: one that cannot be written is kept as a failure, and the rest are still written. */
function writeEach(files: Array<[string, () => string]>): WriteOutcome {
  const out: WriteOutcome = { written: [], failed: [] };
  for (const [path, render] of files) {
    try {
      writeFileNoFollow(path, render());
      out.written.push(path);
    } catch (e) {
      if (!(e instanceof WriteFileError)) throw e;
      out.failed.push(e);
    }
  }
  return out;
}

/** The requested formats' files, each with its renderer, in the order they are written. */
function reportFiles(report: Report, targets: ReportTargets, options: HtmlOptions): Array<[string, () => string]> {
  const files: Array<[string, () => string]> = [];
  if (targets.json) files.push([targets.json, () => renderJson(report)]);
  if (targets.junit) files.push([targets.junit, () => renderJunit(report)]);
  if (targets.markdown) files.push([targets.markdown, () => renderMarkdown(report)]);
  if (targets.html) files.push([targets.html, () => renderHtml(report, options)]);
  if (targets.badge) {
    files.push([targets.badge, () => renderBadge(report)]);
    files.push([badgeJsonPath(targets.badge), () => renderBadgeJson(report)]);
  }
  return files;
}

/** Write each requested format, creating parent directories; a file that cannot be written is a failure, and the others are still written. */
export function writeEachReport(report: Report, targets: ReportTargets, options: HtmlOptions = {}): WriteOutcome {
  return writeEach(reportFiles(report, targets, options));
}

/** Write each requested format, creating parent directories; returns the paths written, and throws the first failure once every other file is written. */
export function writeReports(report: Report, targets: ReportTargets, options: HtmlOptions = {}): string[] {
  const { written, failed } = writeEachReport(report, targets, options);
  if (failed[0]) throw failed[0];
  return written;
}

export interface MatrixTargets {
  json?: string;
  markdown?: string;
  html?: string;
}

/** Write each requested format of a matrix, creating parent directories; returns the paths written. */
export function writeMatrix(matrix: Matrix, targets: MatrixTargets, kitVersion: string): string[] {
  const files: Array<[string, () => string]> = [];
  if (targets.json) files.push([targets.json, () => renderMatrixJson(matrix, kitVersion)]);
  if (targets.markdown) files.push([targets.markdown, () => renderMatrixMarkdown(matrix)]);
  if (targets.html) files.push([targets.html, () => renderMatrixHtml(matrix)]);
  const { written, failed } = writeEach(files);
  if (failed[0]) throw failed[0];
  return written;
}
