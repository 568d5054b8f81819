/**
 * Recorded requests, streamed: JSON lines (one request per line) or one JSON
 * array, gzip-compressed or not (told by the bytes, not the name), from a
 * file or stdin. Memory stays bounded by the longest request, never by the
 * file: a million recorded requests read like ten.
 *
 * A line that cannot be read (not UTF-8, not JSON, too long, a cut gzip
 * stream) is yielded as `unreadable` with its line and the reason, and
 * reading goes on. A line that is JSON is a request, whatever it holds: an
 * invalid request is the implementation's to refuse (VAL-*), not the reader's.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CallerError } from '../../vocabulary/errors.js';

export type Recorded = { line: number; request: unknown } | { line: number; unreadable: string };

/** Longest line (or array element) read; a longer one is unreadable, and skipped without being buffered. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/**
 * How far a file's blank lines may outnumber its other lines: past it the
 * rest of the file is not read (a gzip of newlines expands a thousandfold,
 * and would take minutes to read for no request). A file with a blank line
 * after every request never comes near it.
 */
export const MAX_EXTRA_BLANK_LINES = 1_000_000;

/** A blank-line count is reported at least this often, for progress while no request comes. */
const BLANK_PROGRESS_EVERY = 1 << 16;

export interface ReadOptions {
  /** Raw bytes consumed so far (compressed bytes for gzip): progress against the file size. */
  onBytes?: (bytes: number) => void;
  /** Blank lines read so far (whitespace only), counted as they come and at the end. */
  onBlank?: (lines: number) => void;
  maxExtraBlankLines?: number;
  maxRecordBytes?: number;
  /**
   * Asked once for every record, in order, with its line, before it is parsed:
   * a record it declines is neither parsed nor yielded (another shard's).
   */
  take?: (line: number) => boolean;
}

const NL = 0x0a;
const GZIP_MAGIC = [0x1f, 0x8b];

/** `-` is stdin. */
function open(path: string): Readable {
  return path === '-' ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 });
}

/** The byte stream, counted as it is read, inflated when it starts with the gzip magic. */
async function* bytes(path: string, o: ReadOptions): AsyncGenerator<Buffer> {
  const raw = open(path);
  let read = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of raw) {
      read += (chunk as Buffer).length;
      o.onBytes?.(read);
      yield chunk as Buffer;
    }
  }
  const it = counted();
  const first = await it.next();
  if (first.done) return;
  const head = first.value;
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    yield* it;
  }
  if (head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1]) {
    const src = Readable.from(all());
    const gunzip = createGunzip({ chunkSize: 1 << 20 });
    src.on('error', (e) => gunzip.destroy(e));
    yield* src.pipe(gunzip) as AsyncIterable<Buffer>;
  } else {
    yield* all();
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function parse(line: number, buf: Buffer, take?: (line: number) => boolean): Recorded | undefined {
  let text: string;
  try {
    text = decoder.decode(buf);
  } catch {
    return take && !take(line) ? undefined : { line, unreadable: 'not UTF-8 text' };
  }
  if (text.trim() === '') return undefined;
  if (take && !take(line)) return undefined;
  try {
    return { line, request: JSON.parse(text) };
  } catch (e) {
    return { line, unreadable: `not JSON: ${(e as Error).message}` };
  }
}

/**
 * Every record of one file in order, with its 1-based line (for an array, the
 * line its element starts on). A file that cannot be opened throws.
 */
export async function* readRecorded(path: string, o: ReadOptions = {}): AsyncGenerator<Recorded> {
  const max = o.maxRecordBytes ?? MAX_RECORD_BYTES;
  const blanks = new BlankLines(o);
  const source = bytes(path, o);
  let lineNo = 1;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Inside a line already too long: drop bytes up to its end. */
  let skipping = false;
  let first = true;
  try {
    for await (let chunk of source) {
      if (first) {
        first = false;
        // A UTF-8 byte order mark says nothing about the records.
        if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
        const start = chunk.findIndex((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
        if (start >= 0 && chunk[start] === 0x5b /* [ */) {
          yield* readArray(chunk, source, max, blanks, o.take);
          return;
        }
      }
      let from = 0;
      for (;;) {
        const nl = chunk.indexOf(NL, from);
        if (nl < 0) break;
        const part = chunk.subarray(from, nl);
        from = nl + 1;
        if (skipping) {
          skipping = false;
          blanks.other();
        } else if (pendingBytes + part.length > max) {
          blanks.other();
          if (!o.take || o.take(lineNo)) yield { line: lineNo, unreadable: `longer than ${max} bytes` };
        } else if (pending.length === 0 && isBlank(part)) {
          // Told from the bytes, not decoded and parsed: a file of newlines costs a count per line.
          if (blanks.blank()) {
            if (!o.take || o.take(lineNo)) yield blanks.ending(lineNo);
            return;
          }
        } else {
          const line = pending.length === 0 ? part : Buffer.concat([...pending, part]);
          const r = parse(lineNo, stripCr(line), o.take);
          if (r) yield r;
          blanks.other();
        }
        pending = [];
        pendingBytes = 0;
        lineNo++;
      }
      if (from < chunk.length && !skipping) {
        const rest = chunk.subarray(from);
        pendingBytes += rest.length;
        if (pendingBytes > max) {
          if (!o.take || o.take(lineNo)) yield { line: lineNo, unreadable: `longer than ${max} bytes` };
          skipping = true;
          pending = [];
          pendingBytes = 0;
        } else pending.push(Buffer.from(rest));
      }
    }
  } catch (e) {
    if (!o.take || o.take(lineNo)) yield { line: lineNo, unreadable: `the rest of the file could not be read: ${(e as Error).message}` };
    return;
  } finally {
    blanks.report();
  }
  if (pending.length > 0 && !skipping) {
    const r = parse(lineNo, stripCr(Buffer.concat(pending)), o.take);
    if (r) yield r;
  }
}

/** Spaces, tabs and a carriage return only (a line parse() would pass over). */
function isBlank(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The blank lines of one file: counted, reported for progress, and bounded by MAX_EXTRA_BLANK_LINES over its other lines. */
class BlankLines {
  private blanks = 0;
  private others = 0;
  private reported = 0;
  private readonly extra: number;
  constructor(private readonly o: ReadOptions) {
    this.extra = o.maxExtraBlankLines ?? MAX_EXTRA_BLANK_LINES;
  }
  other(): void {
    this.others++;
  }
  /** One more blank line; true when the file has too many and its reading ends. */
  blank(): boolean {
    this.blanks++;
    if (this.blanks - this.reported >= BLANK_PROGRESS_EVERY) this.report();
    return this.blanks > this.others + this.extra;
  }
  report(): void {
    if (this.blanks === this.reported) return;
    this.reported = this.blanks;
    this.o.onBlank?.(this.blanks);
  }
  /** The record that ends the file: whoever reads it learns why nothing after it was read. */
  ending(line: number): Recorded {
    this.report();
    return {
      line,
      unreadable: `${this.blanks.toLocaleString('en-US')} blank lines, ${this.extra.toLocaleString('en-US')} more than the file's other lines: the rest of the file is not read`,
    };
  }
}

function stripCr(b: Buffer): Buffer {
  return b.length > 0 && b[b.length - 1] === 0x0d ? b.subarray(0, b.length - 1) : b;
}

/**
 * A top-level JSON array, element by element: a small scanner finds where
 * each element ends (strings, escapes and nesting), and each element is
 * parsed alone. A malformed element is unreadable; the scanner goes on at the
 * next comma of the array.
 */
async function* readArray(
  head: Buffer,
  rest: AsyncIterator<Buffer>,
  max: number,
  blanks: BlankLines,
  take?: (line: number) => boolean,
): AsyncGenerator<Recorded> {
  const text = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  /** 0: before the '['; 1: inside the array, between elements; 2: inside an element; 3: after the ']'. */
  let state = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element: string[] = [];
  let elementLength = 0;
  let elementLine = 0;
  let tooLong = false;
  let trailing = false;
  /** Too many blank lines between elements: the rest is not read. */
  let ended: Recorded | undefined;

  const finish = (): Recorded | undefined => {
    const src = element.join('');
    element = [];
    elementLength = 0;
    if (take && !take(elementLine)) {
      tooLong = false;
      return undefined;
    }
    if (tooLong) {
      tooLong = false;
      return { line: elementLine, unreadable: `longer than ${max} bytes` };
    }
    try {
      return { line: elementLine, request: JSON.parse(src) };
    } catch (e) {
      return { line: elementLine, unreadable: `not JSON: ${(e as Error).message}` };
    }
  };

  const scan = function* (s: string): Generator<Recorded> {
    let start = state === 2 ? 0 : -1;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x0a) line++;
      if (state === 2) {
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) {
            inString = false;
            if (depth === 0) {
              // A bare string element ends with its closing quote.
              keep(s.slice(start, i + 1));
              state = 1;
              const r = finish();
              if (r) yield r;
            }
          }
          continue;
        }
        if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          if (depth === 0) {
            // The array's own ']' ends a bare number, true, false or null.
            keep(s.slice(start, i));
            state = 1;
            const r = finish();
            if (r) yield r;
            i--;
            continue;
          }
          depth--;
          if (depth === 0) {
            keep(s.slice(start, i + 1));
            state = 1;
            const r = finish();
            if (r) yield r;
          }
        } else if (depth === 0 && (c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) {
          keep(s.slice(start, i));
          state = 1;
          const r = finish();
          if (r) yield r;
          i--;
          if (c === 0x0a) line--;
        }
        continue;
      }
      if (c === 0x0a && blanks.blank()) {
        ended = blanks.ending(line);
        return;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (state === 0) {
        state = 1; // the '[' (checked before the scan began)
        continue;
      }
      if (state === 3) {
        trailing = true;
        continue;
      }
      if (c === 0x2c) continue;
      if (c === 0x5d) {
        state = 3;
        continue;
      }
      state = 2;
      blanks.other();
      start = i;
      elementLine = line;
      depth = 0;
      inString = c === 0x22;
      if (c === 0x7b || c === 0x5b) depth = 1;
    }
    if (state === 2) keep(s.slice(start));
  };

  const keep = (piece: string): void => {
    if (tooLong) return;
    elementLength += piece.length;
    if (elementLength > max) {
      tooLong = true;
      element = [];
    } else element.push(piece);
  };

  let chunk: Buffer | undefined = head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  try {
    while (chunk !== undefined) {
      yield* scan(text.decode(chunk, { stream: true }));
      if (ended) {
        if (!take || take(ended.line)) yield ended;
        return;
      }
      const next = await rest.next();
      chunk = next.done ? undefined : next.value;
    }
    yield* scan(text.decode());
  } catch (e) {
    const why =
      e instanceof TypeError && /decode|encoded/i.test(e.message) ? 'not UTF-8 text' : `the rest of the file could not be read: ${(e as Error).message}`;
    if (!take || take(line)) yield { line, unreadable: why };
    return;
  }
  const taken = (at: number): boolean => !take || take(at);
  if (state === 2) {
    const r = finish();
    if (r) yield { line: r.line, unreadable: 'the array ends inside this element' };
  } else if (state !== 3 && taken(line)) yield { line, unreadable: 'the array is not closed with ]' };
  if (trailing && taken(line)) yield { line, unreadable: 'text after the closing ] of the array' };
}

export interface ReplaySource {
  path: string;
  /** As results name it: the path as given, `stdin` for `-`. */
  label: string;
  line?: number;
  /** Bytes on disk, for progress; absent for stdin. */
  size?: number;
}

/** `FILE`, `-` (stdin) or `FILE:LINE` (one request of FILE), as a command line names recorded requests; a file that is not there is a usage error. */
export function recordedSource(arg: string): ReplaySource {
  if (arg === '-') return { path: '-', label: 'stdin' };
  const file = (path: string): ReplaySource | undefined => {
    if (!existsSync(path)) return undefined;
    const st = statSync(path);
    if (!st.isFile()) throw new CallerError(`${path} is not a file`);
    return { path, label: path.split('\\').join('/'), size: st.size };
  };
  const whole = file(arg);
  if (whole) return whole;
  const m = /^(.*):([1-9]\d*)$/.exec(arg);
  const part = m ? file(m[1]!) : undefined;
  if (part) return { ...part, line: Number(m![2]) };
  throw new CallerError(`cannot read ${arg}: no such file`);
}
