/**
 * Walks over JSON values that hold at any depth. JSON.parse reads any nesting
 * the memory allows (V8's parser keeps its own stack), but JSON.stringify,
 * structuredClone, a worker's postMessage and every recursive function give up
 * with a RangeError at a few thousand levels; a recorded request with an
 * unknown member nested 10,000 deep is valid (REQ-3 says ignore it), so the
 * kit must carry it wherever the parser could read it. Each walk here keeps an
 * explicit stack, and where the native function is faster and the value is
 * shallow enough, the native function is tried first.
 */

import { types } from 'node:util';

type Obj = Record<string, unknown>;

const isPlainContainer = (v: unknown): v is Obj | unknown[] => typeof v === 'object' && v !== null;

/** JSON Pointer escaping of one reference token (RFC 6901). */
export const pointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Whether an error is the engine's "Maximum call stack size exceeded". */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

export interface WriteOptions {
  /** Spaces per level, as JSON.stringify's third argument (0 or absent: one line). */
  indent?: number;
  /** Levels indented at most; deeper ones are written on one line (indenting 10,000 levels would write 10^8 spaces). */
  indentDepth?: number;
  /** Stop writing once the text is longer than this many characters (the result is then cut there). */
  limit?: number;
  /**
   * Containers deeper than this many levels are written as a string that says so: a reader's
   * parser gives up past some depth (Python's json at about 1,000), and a report stays readable.
   */
  maxDepth?: number;
  /**
   * How a number or a BigInt is written; `at()` gives its JSON Pointer. Absent:
   * JSON.stringify's way (a non-finite number is `null`, a BigInt throws).
   */
  scalar?: (value: number | bigint, at: () => string) => string;
}

interface Frame {
  /** The container's members still to write: array indices or object keys. */
  keys: string[] | null;
  value: Obj | unknown[];
  next: number;
  /** Whether a member was written yet (undefined members of an object are left out). */
  wrote: boolean;
  key: string;
}

const defaultScalar = (v: number | bigint): string => {
  if (typeof v === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return Number.isFinite(v) ? JSON.stringify(v) : 'null';
};

/** toJSON honoured, as JSON.stringify does. */
function prepared(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  return value;
}

const omitted = (v: unknown): boolean => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * JSON.stringify's text (its rules for undefined, functions, symbols and
 * toJSON), written with an explicit stack. `undefined` when the value itself
 * has no JSON text.
 */
export function writeJson(value: unknown, o: WriteOptions = {}): string | undefined {
  const indent = o.indent && o.indent > 0 ? ' '.repeat(Math.min(10, o.indent)) : '';
  const limit = o.limit ?? Infinity;
  const scalar = o.scalar ?? defaultScalar;
  const maxDepth = o.maxDepth ?? Infinity;
  // Pieces gathered into chunks: a value nested 300,000 deep is a million pieces, and many such values would pass an array's size.
  const out: string[] = [];
  let chunk = '';
  let length = 0;
  const put = (s: string): void => {
    chunk += s;
    length += s.length;
    if (chunk.length >= 1 << 16) {
      out.push(chunk);
      chunk = '';
    }
  };
  const stack: Frame[] = [];
  // The containers being written, to refuse a cycle as JSON.stringify does instead of writing forever.
  const open = new Set<object>();
  const enter = (v: object): void => {
    if (open.has(v)) throw new TypeError('Converting circular structure to JSON');
    open.add(v);
  };
  const at =
    (last?: string): (() => string) =>
    () =>
      stack
        .map((f) => `/${pointerToken(f.key)}`)
        .slice(1)
        .join('') + (last === undefined ? '' : `/${pointerToken(last)}`);
  const indentDepth = o.indentDepth ?? Infinity;
  const newline = (depth: number): string => (indent && depth <= indentDepth ? `\n${indent.repeat(depth)}` : '');

  /** Writes a scalar, or opens a container (pushing its frame); false when the value has no text here. */
  const begin = (raw: unknown, key: string, isPrepared = false): boolean => {
    const v = isPrepared ? raw : prepared(raw, key);
    switch (typeof v) {
      case 'string':
      case 'boolean':
        put(JSON.stringify(v));
        return true;
      case 'number':
      case 'bigint':
        put(scalar(v, at(stack.length > 0 ? key : undefined)));
        return true;
      case 'object':
        if (v === null) {
          put('null');
          return true;
        }
        if (stack.length >= maxDepth) {
          put(JSON.stringify(`[${Array.isArray(v) ? 'an array' : 'an object'} nested deeper than ${maxDepth} levels: not written]`));
          return true;
        }
        enter(v);
        if (Array.isArray(v)) {
          put('[');
          stack.push({ keys: null, value: v, next: 0, wrote: false, key });
        } else {
          put('{');
          stack.push({ keys: Object.keys(v), value: v as Obj, next: 0, wrote: false, key });
        }
        return true;
      default:
        return false;
    }
  };

  // The root frame's key is '' (toJSON's key for the root) and is not part of any pointer.
  if (!begin(value, '')) return undefined;
  while (stack.length > 0 && length <= limit) {
    const f = stack[stack.length - 1]!;
    const depth = stack.length;
    if (f.keys === null) {
      const arr = f.value as unknown[];
      if (f.next >= arr.length) {
        stack.pop();
        open.delete(f.value);
        put(f.wrote ? `${newline(depth - 1)}]` : ']');
        continue;
      }
      const i = f.next++;
      put(`${f.wrote ? ',' : ''}${newline(depth)}`);
      f.wrote = true;
      const item = arr[i];
      if (omitted(item) || !begin(item, String(i))) put('null');
    } else {
      if (f.next >= f.keys.length) {
        stack.pop();
        open.delete(f.value);
        put(f.wrote ? `${newline(depth - 1)}}` : '}');
        continue;
      }
      const k = f.keys[f.next++]!;
      const member = prepared((f.value as Obj)[k], k);
      if (omitted(member)) continue;
      put(`${f.wrote ? ',' : ''}${newline(depth)}${JSON.stringify(k)}:${indent && depth <= indentDepth ? ' ' : ''}`);
      f.wrote = true;
      // Already prepared: toJSON is not called twice.
      begin(member, k, true);
    }
  }
  out.push(chunk);
  const text = out.join('');
  return length > limit ? text.slice(0, limit) : text;
}

/** Levels stringifyJson indents: past them a value is written on one line. */
const INDENTED_LEVELS = 64;

/**
 * JSON.stringify(value, null, indent), at any depth: the native function
 * first, this module's writer past its depth. Indented, only the first
 * INDENTED_LEVELS levels are: the text of a value nested 10,000 deep stays
 * the size of its one-line text instead of growing with the square of its depth.
 */
export function stringifyJson(value: unknown, indent = 0, maxDepth = Infinity): string | undefined {
  try {
    if ((indent > 0 || maxDepth < Infinity) && depthOf(value, Math.min(INDENTED_LEVELS, maxDepth) + 1) > Math.min(INDENTED_LEVELS, maxDepth))
      return writeJson(value, { indent, indentDepth: INDENTED_LEVELS, maxDepth });
    return indent > 0 ? JSON.stringify(value, null, indent) : JSON.stringify(value);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return writeJson(value, { indent, indentDepth: INDENTED_LEVELS, maxDepth });
  }
}

/** At most `max` characters of the value's JSON text, `…` after a cut; `String(x)` for what has no JSON text. */
export function compactJson(value: unknown, max = 300): string {
  let s: string | undefined;
  try {
    s = writeJson(value, { limit: max + 1 });
  } catch {
    s = undefined;
  }
  s ??= String(value);
  return s.length > max ? s.slice(0, max) + '…' : s;
}

/** An object with these members, in this order; `__proto__` as a plain member, as JSON.parse makes it. */
function setMember(out: Obj, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

/**
 * A copy of a JSON-like value in which `leaf` has replaced every value that
 * is not an array or a plain object (strings, numbers, ... and objects of
 * other classes); arrays and objects are rebuilt member by member, keys and
 * their order kept. No recursion; a value that contains itself throws.
 */
export function mapJson(value: unknown, leaf: (v: unknown) => unknown): unknown {
  const container = (v: unknown): v is Obj | unknown[] => Array.isArray(v) || (isPlainContainer(v) && isPlainObject(v));
  if (!container(value)) return leaf(value);
  const fresh = (v: Obj | unknown[]): Obj | unknown[] => (Array.isArray(v) ? new Array<unknown>(v.length) : {});
  const root = fresh(value);
  type MapFrame = { from: Obj | unknown[]; to: Obj | unknown[]; keys: string[] | null; next: number };
  const frame = (from: Obj | unknown[], to: Obj | unknown[]): MapFrame => ({ from, to, keys: Array.isArray(from) ? null : Object.keys(from), next: 0 });
  const stack: MapFrame[] = [frame(value, root)];
  const open = new Set<object>([value]);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    const size = f.keys === null ? (f.from as unknown[]).length : f.keys.length;
    if (f.next >= size) {
      stack.pop();
      open.delete(f.from);
      continue;
    }
    const i = f.next++;
    const k = f.keys === null ? i : f.keys[i]!;
    const x = (f.from as Obj)[k as string];
    let y: unknown;
    if (container(x)) {
      if (open.has(x)) throw new TypeError('the value contains itself');
      y = fresh(x);
      open.add(x);
      stack.push(frame(x, y as Obj | unknown[]));
    } else y = leaf(x);
    if (f.keys === null) (f.to as unknown[])[i] = y;
    else setMember(f.to as Obj, k as string, y);
  }
  return root;
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** What plainCopy gives for a value it leaves to structuredClone. */
const NOT_PLAIN = Symbol('not plain data');
/** How deep plainCopy goes before it leaves the value to structuredClone (it recurses; a value that contains itself ends here too). */
const PLAIN_DEPTH = 64;

/**
 * A copy of a value made of plain objects, dense arrays without other members,
 * strings, numbers, booleans, bigints, null and undefined, as structuredClone
 * makes it (its strings shared, not copied: the in-process adapter copies
 * every request, and for a request of a few blocks structuredClone costs
 * twice as much); NOT_PLAIN for anything else, which structuredClone copies
 * or refuses its own way. A member reached twice is copied twice, as JSON
 * would carry it.
 */
function plainCopy(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null) return typeof v === 'function' || typeof v === 'symbol' ? NOT_PLAIN : v;
  if (depth >= PLAIN_DEPTH || types.isProxy(v)) return NOT_PLAIN;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (Array.isArray(v)) {
    if (proto !== Array.prototype) return NOT_PLAIN;
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) return NOT_PLAIN; // a hole: structuredClone keeps it
      const x = plainCopy(v[i], depth + 1);
      if (x === NOT_PLAIN) return NOT_PLAIN;
      out[i] = x;
    }
    // Members besides the items: structuredClone copies them too.
    return Object.keys(v).length === v.length ? out : NOT_PLAIN;
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Obj = {};
  for (const k of Object.keys(v)) {
    const x = plainCopy((v as Obj)[k], depth + 1);
    if (x === NOT_PLAIN) return NOT_PLAIN;
    setMember(out, k, x);
  }
  return out;
}

/**
 * A deep copy, as structuredClone makes it; past structuredClone's depth, the
 * arrays and plain objects are copied with an explicit stack (what a request
 * is made of) and anything else is cloned on its own.
 */
export function cloneJson<T>(value: T): T {
  const plain = plainCopy(value, 0);
  if (plain !== NOT_PLAIN) return plain as T;
  try {
    return structuredClone(value);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return mapJson(value, (x) => (typeof x === 'object' && x !== null ? structuredClone(x) : x)) as T;
  }
}

/**
 * How deep the arrays and objects nest (a scalar is 0, `{}` is 1), counted up
 * to `stopAt` and no further; a value that contains itself is infinitely deep.
 */
export function depthOf(value: unknown, stopAt = Infinity): number {
  if (!isPlainContainer(value)) return 0;
  let deepest = 1;
  const stack: Array<{ members: unknown[]; next: number; self: object }> = [
    { members: Array.isArray(value) ? value : Object.values(value), next: 0, self: value },
  ];
  const open = new Set<object>([value]);
  while (stack.length > 0) {
    if (stack.length > deepest) deepest = stack.length;
    if (deepest >= stopAt) return deepest;
    const f = stack[stack.length - 1]!;
    if (f.next >= f.members.length) {
      stack.pop();
      open.delete(f.self);
      continue;
    }
    const x = f.members[f.next++];
    if (!isPlainContainer(x)) continue;
    if (open.has(x)) return Infinity;
    open.add(x);
    stack.push({ members: Array.isArray(x) ? x : Object.values(x), next: 0, self: x });
  }
  return deepest;
}

/**
 * Whether two JSON-like values are the same: the same members in the same
 * order (any order with `anyOrder`), 0 equal to -0 as in JSON text read back
 * by most parsers (apart with `negativeZero`), NaN to NaN. No recursion; for
 * parsed JSON (a value that contains itself would not end).
 */
export function equalJson(a: unknown, b: unknown, o: { negativeZero?: boolean; anyOrder?: boolean } = {}): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) {
      // -0 apart from 0, when asked (isDeepStrictEqual's rule).
      if (o.negativeZero && x === 0 && !Object.is(x, y)) return false;
      continue;
    }
    if (typeof x === 'number' && typeof y === 'number') {
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      return false;
    }
    if (!isPlainContainer(x) || !isPlainContainer(y)) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], ys[i]]);
    } else {
      const kx = Object.keys(x);
      const ky = Object.keys(y);
      if (kx.length !== ky.length) return false;
      for (let i = 0; i < kx.length; i++) {
        const k = kx[i]!;
        if (o.anyOrder ? !Object.hasOwn(y, k) : k !== ky[i]) return false;
        stack.push([(x as Obj)[k], (y as Obj)[k]]);
      }
    }
  }
  return true;
}

/** isDeepStrictEqual for JSON-like values, at any depth: past the native function's depth, equalJson by its rules. */
export function deepStrictEqualJson(a: unknown, b: unknown, native: (a: unknown, b: unknown) => boolean): boolean {
  try {
    return native(a, b);
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return equalJson(a, b, { negativeZero: true, anyOrder: true });
  }
}
