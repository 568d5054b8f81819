/**
 * The evidence a shadow keeps: each disagreeing request, scrubbed
 * (traffic/, which keeps the reference's answers), appended as one
 * JSON line to a file of its kind of disagreement (its requirement ids, the
 * checks that failed and its status: judging.ts kindOf), `DIR/<kind>.jsonl`,
 * a file `ctxconform replay` reads as it is. At most `perKind` lines per
 * file, counting the lines a file already has, so a systematic defect, or a
 * shadow restarted on the same directory, does not fill the disk. (A kind,
 * not each requirement id: the differential cites every id its answer rests
 * on, and one file per id would hold the same request twenty times.)
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scrubRequest } from '../scrub.js';

export interface Kept {
  file: string;
  line: number;
}

/** A kind's id as a file name: `shadow/EXP-1/differential` is `EXP-1.differential.jsonl`; a long one is cut, with a hash of the whole. */
export function recordFileName(kindId: string): string {
  const slug = kindId
    .replace(/^shadow\//, '')
    .replaceAll('/', '.')
    .replace(/[^A-Za-z0-9_.+-]/g, '_');
  if (slug.length <= 80) return `${slug}.jsonl`;
  return `${slug.slice(0, 60)}-${createHash('sha256').update(kindId).digest('hex').slice(0, 10)}.jsonl`;
}

function linesIn(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readFileSync(file, 'utf8');
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}

export class RecordsKeeper {
  private readonly lines = new Map<string, number>();

  constructor(
    readonly dir: string,
    readonly perKind: number,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Where the request was kept, if its kind's file had room, and its scrubbed copy then. */
  keep(request: unknown, kindId: string): { kept?: Kept; scrubbed?: unknown } {
    const file = join(this.dir, recordFileName(kindId));
    let n = this.lines.get(file);
    if (n === undefined) n = linesIn(file);
    if (n >= this.perKind) {
      this.lines.set(file, n);
      return {};
    }
    const scrubbed = scrubRequest(request).request;
    appendFileSync(file, `${JSON.stringify(scrubbed)}\n`);
    this.lines.set(file, n + 1);
    return { kept: { file, line: n + 1 }, scrubbed };
  }
}

/** Words: runs of letters and digits. */
const WORD = /[\p{L}\p{N}]+/gu;
/** A JSON string literal as a message quotes a value. */
const LITERAL = /"(?:[^"\\]|\\.)*"/g;
/** Inside a literal: an escape (kept as it is), or a word. */
const IN_LITERAL = /\\(?:u[0-9a-fA-F]{4}|.)|[\p{L}\p{N}]+/gu;

/**
 * A judge's message with the request's text taken out, for the status page
 * and the reports: each whole string of the request (ids, sources, contents,
 * any other) becomes its scrubbed copy wherever the message quotes it as
 * JSON, or names it when it is long enough not to be a common word; and
 * inside the values the message quotes (JSON string literals), which may be
 * cut anywhere (`…"eta ga"…`), every word that is part of a word of the
 * request, and not of its scrubbed copy, becomes x's.
 */
export function scrubMessage(message: string, request: unknown, scrubbed: unknown): string {
  const pairs = new Map<string, string>();
  const secret = new Set<string>();
  const kept = new Set<string>();
  const walk = (a: unknown, b: unknown): void => {
    if (pairs.size > 10_000) return;
    if (typeof a === 'string' && typeof b === 'string') {
      if (a !== b && a !== '') pairs.set(a, b);
      for (const w of a.match(WORD) ?? []) secret.add(w);
      for (const w of b.match(WORD) ?? []) kept.add(w);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      for (const [i, x] of a.entries()) walk(x, b[i]);
    } else if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null)
      for (const k of Object.keys(a)) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]);
  };
  walk(request, scrubbed);
  for (const w of kept) secret.delete(w);
  let out = message;
  for (const [a, b] of [...pairs].sort((x, y) => y[0].length - x[0].length)) {
    out = out.split(JSON.stringify(a)).join(JSON.stringify(b));
    if (a.length >= 6) out = out.split(a).join(b);
  }
  if (secret.size === 0) return out;
  const secrets = [...secret];
  const isSecret = (w: string): boolean => !kept.has(w) && (secret.has(w) || secrets.some((s) => s.includes(w)));
  return out.replace(LITERAL, (lit) => lit.replace(IN_LITERAL, (w) => (w.startsWith('\\') || !isSecret(w) ? w : (pairs.get(w) ?? 'x'.repeat(w.length)))));
}
