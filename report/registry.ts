/**
 * The registry of report formats. Each format is one entry module in
 * report/formats/, found there at run time (no list names them): the option
 * that asks for it, its help line, its file name in a reports directory, and
 * how it renders, its writer imported only when a file is asked for. Every
 * command that writes reports (run, contract, replay, sweep, merge), their
 * help and the GitHub Action read the entries, so a new format is its writer
 * plus its entry.
 */
import { fileURLToPath } from 'node:url';
import { entryModules } from '../protocol/entries.js';
import type { Report, TokenTable } from '../protocol/types.js';

/** What a caller may hand every format besides the report; a format reads what it shows. */
export interface RenderOptions {
  /** The `ctxconform tokens --json` table (the HTML report shows it as its own section). */
  tokens?: TokenTable;
}

/** One file a format writes. */
export interface RenderedFile {
  path: string;
  text: string;
}

export interface ReportFormat {
  /** Its name: the key of a target and the option that asks for it (`--NAME FILE`). */
  name: string;
  /** The file placeholder in the help (`FILE`, `FILE.svg`). */
  metavar: string;
  /** One line: what the file is for. */
  help: string;
  /** Its file name under `--reports-dir DIR`. */
  file: string;
  /** Where help lists it, smallest first. */
  rank: number;
  /** The files it writes for a report asked at `path` (most one; the badge its SVG and the endpoint JSON beside it). */
  render(report: Report, path: string, options: RenderOptions): Promise<RenderedFile[]>;
  /** The paths render writes for `path`, known before any run (absent: `path` alone): two reports on one file are refused before a run. */
  paths?(path: string): string[];
}

/** An entry module's format (identity: it only checks the entry's shape). */
export function defineFormat(f: ReportFormat): ReportFormat {
  return f;
}

const registry = new Map<string, ReportFormat>();

/** Add a format; its name must be new. The entries of report/formats/ come through loadFormats. */
export function registerFormat(f: ReportFormat): void {
  if (registry.has(f.name)) throw new Error(`report format ${f.name} is registered twice`);
  const sameFile = [...registry.values()].find((r) => r.file === f.file);
  if (sameFile) throw new Error(`report format ${f.name}: file name ${f.file} is ${sameFile.name}'s`);
  registry.set(f.name, f);
}

/** Forget a format registerFormat added (for tests). */
export function unregisterFormat(name: string): void {
  registry.delete(name);
}

/** Every registered format, in rank order. Call loadFormats first. */
export function formats(): ReportFormat[] {
  return [...registry.values()].sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : 1));
}

/** The entry modules' folder, beside this module. */
const ENTRIES = fileURLToPath(new URL('./formats/', import.meta.url));

/**
 * Register every entry module of `dir` (protocol/entries.ts): each
 * default-exports a format; a module that exports none is an error naming it.
 */
export async function registerFormatsIn(dir: string): Promise<void> {
  for (const f of await entryModules(dir, import.meta.url, isFormat, 'report format', 'defineFormat')) registerFormat(f);
}

const isFormat = (x: unknown): x is ReportFormat =>
  typeof x === 'object' && x !== null && typeof (x as ReportFormat).render === 'function' && typeof (x as ReportFormat).name === 'string';

let loaded: Promise<void> | undefined;

/** Register the built-in formats (once; later calls wait for the first). */
export function loadFormats(): Promise<void> {
  loaded ??= registerFormatsIn(ENTRIES);
  return loaded;
}
