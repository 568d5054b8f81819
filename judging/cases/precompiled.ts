/**
 * The bundled corpus, parsed once at build time (dist/corpus.json): parsing
 * 300 YAML files with positions takes most of a second, and `ctxconform list`
 * should not. A file is taken from here only when its bytes hash to what was
 * compiled, and the whole index only when SPEC.md and the case schema are the
 * ones it was compiled against; anything else is parsed and checked afresh.
 * Only the compiled kit reads it: the index is as good as the loader that made
 * it, and the TypeScript sources (the tests) may be newer than the last build.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { packagePath } from '../../protocol/package-root.js';
import { CASE_SCHEMA_PATH } from './schema.js';
import type { GoldenCase } from '../../vocabulary/types.js';

export const PRECOMPILED_PATH: string = packagePath('dist', 'corpus.json');
const COMPILED = import.meta.url.endsWith('.js');

type StoredCase = Omit<GoldenCase, 'file'>;

interface Index {
  /** The hash of what validity depends on besides the file: SPEC.md's ids and the case schema. */
  inputs: string;
  /** Relative path -> the file's hash and the case loaded from it, encoded. */
  files: Record<string, { sha: string; case: string }>;
}

export function hashOf(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function inputsHash(): string {
  return hashOf(readFileSync(packagePath('SPEC.md'), 'utf8') + '\u0000' + readFileSync(CASE_SCHEMA_PATH, 'utf8'));
}

// JSON has no -0, NaN or Infinity, and cases send all three (NUM-5, REQ-4): they travel as
// strings under a NUL prefix, and a string that itself starts with NUL gets a second one.
const MARK = '\u0000';

function encode(c: StoredCase): string {
  return JSON.stringify(c, (_k, v: unknown) => {
    if (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v))) return `${MARK}n:${Object.is(v, -0) ? '-0' : String(v)}`;
    if (typeof v === 'string' && v.startsWith(MARK)) return MARK + v;
    return v;
  });
}

function decode(text: string): StoredCase {
  // JSON.stringify writes a NUL only as the escape \u0000: a case without one has no marked string, and is read
  // without a reviver, which JavaScript would run for every value (most of what loading the corpus costs).
  if (!text.includes('\\u0000')) return JSON.parse(text) as StoredCase;
  return JSON.parse(text, (_k, v: unknown) => {
    if (typeof v !== 'string' || !v.startsWith(MARK)) return v;
    return v.startsWith(MARK + MARK) ? v.slice(1) : Number(v.slice(3));
  }) as StoredCase;
}

let index: Index | null | undefined;

/** The cases of the build, keyed by relative path, or undefined when there is no usable index. */
export function precompiledCase(rel: string, text: string): StoredCase | undefined {
  if (index === undefined) {
    index = null;
    if (COMPILED && existsSync(PRECOMPILED_PATH)) {
      const read = JSON.parse(readFileSync(PRECOMPILED_PATH, 'utf8')) as Index;
      if (read.inputs === inputsHash()) index = read;
    }
  }
  const hit = index?.files[rel];
  return hit && hit.sha === hashOf(text) ? decode(hit.case) : undefined;
}

/** Write the index of cases loaded without problems from dir (the build's step after tsc). */
export function writePrecompiled(dir: string, cases: readonly GoldenCase[]): void {
  const files: Index['files'] = {};
  for (const c of cases) {
    const { file, ...stored } = c;
    files[relative(dir, file)] = { sha: hashOf(readFileSync(file, 'utf8')), case: encode(stored) };
  }
  writeFileSync(PRECOMPILED_PATH, JSON.stringify({ inputs: inputsHash(), files } satisfies Index));
}
