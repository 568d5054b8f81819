/**
 * Published data the tests hold the kit to: the copies in test/fixtures/published/
 * (README there), and the published schema documents, which are not copied and
 * are read from the folder CTXCONFORM_ANCHORS names, when it names one.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PUBLISHED_DIR = fileURLToPath(new URL('./fixtures/published/', import.meta.url));

/** A published data file's parsed JSON: `published('lesson7/context-demo.json')`. */
export function published<T = any>(path: string): T {
  return JSON.parse(readFileSync(join(PUBLISHED_DIR, path), 'utf8')) as T;
}

/** The folder of the published originals, or undefined when CTXCONFORM_ANCHORS is unset. */
export const ANCHORS_DIR: string | undefined = process.env['CTXCONFORM_ANCHORS'] ? resolve(process.env['CTXCONFORM_ANCHORS']) : undefined;

export const NO_ANCHORS =
  'skipped: CTXCONFORM_ANCHORS is unset, and the published schema documents these tests compare with are not in the repository (test/fixtures/published/README.md)';

/** A published original's parsed JSON (only when ANCHORS_DIR is set). */
export function anchor<T = any>(path: string): T {
  if (!ANCHORS_DIR) throw new Error(NO_ANCHORS);
  return JSON.parse(readFileSync(join(ANCHORS_DIR, path), 'utf8')) as T;
}

/** Say once, on stderr, why a file's anchor tests do not run (vitest's own skip shows no reason). */
export function sayWhenNoAnchors(file: string): void {
  if (!ANCHORS_DIR) console.warn(`${file}: ${NO_ANCHORS}`);
}
