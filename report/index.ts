/**
 * Writes the report formats a run asked for, as the registered formats
 * render them (registry.ts, report/formats/); the writers are pure
 * (`render<Format>(report): string`), and this is the only module with file I/O.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Report } from '../protocol/types.js';
import { renderMatrixJson } from './matrix.js';
import type { Matrix } from './matrix.js';
import { renderMatrixHtml } from './matrix-html.js';
import { renderMatrixMarkdown } from './matrix-markdown.js';
import { formats, loadFormats } from './registry.js';
import type { RenderedFile, RenderOptions } from './registry.js';

export type { Report } from '../protocol/types.js';
export { renderBadge, renderBadgeJson, badgeColour, badgeData, badgeJsonPath } from './badge.js';
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
export { defineFormat, formats, loadFormats, registerFormat, registerFormatsIn, unregisterFormat } from './registry.js';
export type { RenderedFile, RenderOptions, ReportFormat } from './registry.js';

/** The file of each format asked for, by format name (`{ json: 'out/r.json', junit: 'out/junit.xml' }`); absent ones are not written. */
export type ReportTargets = Partial<Record<string, string>>;

/** Two formats asked to write one file: nothing is written, the message names both. */
export class ReportTargetError extends Error {}

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A target for every registered format in `dir`, under its file name; `targets` name the files of those given apart. */
export async function targetsIn(dir: string, targets: ReportTargets = {}): Promise<ReportTargets> {
  await loadFormats();
  const out: ReportTargets = {};
  for (const f of formats()) out[f.name] = targets[f.name] ?? join(dir, f.file);
  return out;
}

/**
 * Write each requested format, creating parent directories; returns the
 * paths written. A target naming no registered format, or two formats
 * writing one file, is a ReportTargetError before anything is written.
 */
export async function writeReports(report: Report, targets: ReportTargets, options: RenderOptions = {}): Promise<string[]> {
  await loadFormats();
  const known = new Set(formats().map((f) => f.name));
  const unknown = Object.keys(targets).filter((k) => targets[k] !== undefined && !known.has(k));
  if (unknown.length > 0) throw new ReportTargetError(`no report format named ${unknown.join(', ')} (formats: ${[...known].join(', ')})`);
  const files: Array<RenderedFile & { format: string }> = [];
  for (const f of formats()) {
    const path = targets[f.name];
    if (path === undefined) continue;
    for (const file of await f.render(report, path, options)) files.push({ ...file, format: f.name });
  }
  const byPath = new Map<string, string>();
  for (const file of files) {
    const other = byPath.get(resolve(file.path));
    if (other !== undefined) throw new ReportTargetError(`${file.path} would be written by both --${other} and --${file.format}: give them different files`);
    byPath.set(resolve(file.path), file.format);
  }
  return files.map((file) => write(file.path, file.text));
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
