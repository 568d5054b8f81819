/**
 * The writers: every report format, each a pure render of a Report, and the one module that writes them.
 *
 * Writes the report formats a run asked for, as the registered formats
 * render them (registry.ts, report/formats/); the writers are pure
 * (`render<Format>(report): string`), and this is the only module with file I/O.
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Report } from '../protocol/types.js';
import { WriteFileError, writeFileNoFollow } from '../protocol/write-file.js';

export { WriteFileError };
import { renderMatrixJson } from './matrix.js';
import type { Matrix } from './matrix.js';
import { renderMatrixHtml } from './matrix-html.js';
import { renderMatrixMarkdown } from './matrix-markdown.js';
import { formats, loadFormats } from './registry.js';
import type { RenderedFile, RenderOptions } from './registry.js';

export type { Report } from '../protocol/types.js';
export { renderBadge, renderBadgeJson, badgeColour, badgeData } from './badge.js';
export { badgeJsonPath } from './badge-path.js';
export { renderHtml } from './html.js';
export type { HtmlOptions } from './html.js';
export { renderJson } from './json.js';
export { renderJunit } from './junit.js';
export { renderMarkdown } from './markdown.js';
export { verdictLine, score, percent } from './text.js';
export { verdict } from '../protocol/verdict.js';
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

/** A file written without following a link planted at its path (protocol/write-file.ts), its folders made. */
function write(path: string, text: string): string {
  writeFileNoFollow(path, text);
  return path;
}

/** The paths written, and each that could not be (named, with the reason), every other one written regardless. */
export interface WriteOutcome {
  written: string[];
  failed: WriteFileError[];
}

function writeEach(files: readonly { path: string; text: string }[]): WriteOutcome {
  const out: WriteOutcome = { written: [], failed: [] };
  for (const f of files) {
    try {
      out.written.push(write(f.path, f.text));
    } catch (e) {
      if (!(e instanceof WriteFileError)) throw e;
      out.failed.push(e);
    }
  }
  return out;
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
export async function writeEachReport(report: Report, targets: ReportTargets, options: RenderOptions = {}): Promise<WriteOutcome> {
  await loadFormats();
  checkReportTargets(targets);
  const files: Array<RenderedFile & { format: string }> = [];
  for (const f of formats()) {
    const path = targets[f.name];
    if (path === undefined) continue;
    for (const file of await f.render(report, path, options)) files.push({ ...file, format: f.name });
  }
  checkPaths(files);
  return writeEach(files);
}

/** Two of `files` on one path (resolved) is a ReportTargetError naming both formats. */
function checkPaths(files: readonly { path: string; format: string }[]): void {
  const byPath = new Map<string, string>();
  for (const file of files) {
    const other = byPath.get(resolve(file.path));
    if (other !== undefined && other !== file.format)
      throw new ReportTargetError(`${file.path} would be written by both --${other} and --${file.format}: give them different files`);
    if (other !== undefined) throw new ReportTargetError(`${file.path} would be written twice by --${file.format}: give it another file`);
    byPath.set(resolve(file.path), file.format);
  }
}

/** The nearest part of `path` that exists, walking up: what a write there would meet. */
function nearestExisting(path: string): { at: string; folder: boolean } | undefined {
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      return { at, folder: statSync(at).isDirectory() };
    } catch {
      if (dirname(at) === at) return undefined;
    }
  }
}

/** Whether two paths are one file: the same path, or the same file through another name (a link). */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** A report file that cannot be written where it is asked: a folder in its place, a file where a folder must be, or a file the command reads. */
function misplaced(file: { path: string; format: string }, inputs: readonly string[]): string | undefined {
  const input = inputs.find((i) => sameFile(file.path, i));
  if (input !== undefined)
    return `${file.path} is an input of this command (${input}): --${file.format} would write over what it reads; give the report another file`;
  const found = nearestExisting(file.path);
  if (found === undefined) return undefined;
  if (found.at === resolve(file.path)) return found.folder ? `${file.path} is a folder: --${file.format} names the file to write` : undefined;
  return found.folder ? undefined : `${found.at} is a file, so ${file.path} cannot be written under it (a folder was meant?)`;
}

/**
 * Whether the targets can all be written as asked, known before any run: a format no entry
 * registers, two files on one path (the badge's JSON beside `--json`), a folder where a file is
 * to be written or a file where a folder must be (`--reports-dir FILE`), or a file the command
 * reads (`places.inputs`: `replay in.jsonl --json in.jsonl`), is a ReportTargetError; the last three
 * are looked for when `places` is given (before a run). Call loadFormats first.
 */
export function checkReportTargets(targets: ReportTargets, places?: { inputs: readonly string[] }): void {
  const known = new Set(formats().map((f) => f.name));
  const unknown = Object.keys(targets).filter((k) => targets[k] !== undefined && !known.has(k));
  if (unknown.length > 0) throw new ReportTargetError(`no report format named ${unknown.join(', ')} (formats: ${[...known].join(', ')})`);
  const files: { path: string; format: string }[] = [];
  for (const f of formats()) {
    const path = targets[f.name];
    if (path !== undefined) for (const p of f.paths?.(path) ?? [path]) files.push({ path: p, format: f.name });
  }
  checkPaths(files);
  // Before a run only: once it has run, each report that cannot be written is said and the others are written.
  for (const file of places ? files : []) {
    const why = misplaced(file, places!.inputs);
    if (why !== undefined) throw new ReportTargetError(why);
  }
}

/** Every requested format written; the first that could not be is thrown once every other one is. */
export async function writeReports(report: Report, targets: ReportTargets, options: RenderOptions = {}): Promise<string[]> {
  const { written, failed } = await writeEachReport(report, targets, options);
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
  const files: { path: string; text: string }[] = [];
  if (targets.json) files.push({ path: targets.json, text: renderMatrixJson(matrix, kitVersion) });
  if (targets.markdown) files.push({ path: targets.markdown, text: renderMatrixMarkdown(matrix) });
  if (targets.html) files.push({ path: targets.html, text: renderMatrixHtml(matrix) });
  const { written, failed } = writeEach(files);
  if (failed[0]) throw failed[0];
  return written;
}
