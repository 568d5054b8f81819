/**
 * A recorded request made safe to share: no text of the original is left,
 * and the reference answers it with the same selection, reasons and order
 * (modulo the renaming), because every property selection reads is kept:
 *
 * - a content becomes filler of the same code-point length (NUM-1, REN-4),
 *   one filler character per original code point of the same UTF-8 length,
 *   so its UTF-16 and byte lengths are kept too and an implementation that
 *   miscounts either still miscounts the copy the same way;
 * - a block id becomes `b<n>`, numbered in code-point order (NUM-4) of the
 *   request's distinct ids, so ties break the same way and duplicates stay
 *   duplicates (VAL-4); `must_include` and `exclude` are renamed alike (ids
 *   on which UTF-16 order differs are renamed character by character, idMap);
 * - a source that names a tier (TIER-1) is kept; any other becomes a name
 *   that names no tier and sits in the same place in code-point order among
 *   all the sources, so rendering order (REN-1) is kept;
 * - numbers, booleans, `null`, and the enumerated strings `profile` and
 *   `status` (when they hold a value the spec defines) are kept; any other
 *   string, in any member, becomes filler.
 *
 * Pure: no I/O, so the proof of the claim (test/replay/scrub.test.ts) runs
 * over the corpus and random requests.
 */
import { compareCodePoints, SOURCE_TO_TIER } from '../reference/index.js';
import { BLOCK_STATUSES } from '../protocol/assembly.js';
import { mapJson } from '../protocol/deep-json.js';

export interface Scrubbed {
  request: unknown;
  /** Original block id -> opaque id. */
  ids: Map<string, string>;
  /** Original source -> its name in the copy (itself for a tier source). */
  sources: Map<string, string>;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const PROFILES = new Set(['tiered', 'ranked']);
const STATUSES: ReadonlySet<string> = new Set(BLOCK_STATUSES);

const NOT_ASCII = /[^\u0000-\u007f]/;

/**
 * Filler of the same code-point length: per code point, a character of the
 * same UTF-8 length (x, χ, ｘ, 𝑥). A lone surrogate is no text and is kept,
 * so it still counts as one code point the way it did (NUM-1).
 */
export function filler(s: string): string {
  // ASCII (most recorded text): one x per character, without building the string a character at a time.
  if (!NOT_ASCII.test(s)) return 'x'.repeat(s.length);
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += 'x';
    else if (cp < 0x800) out += '\u03c7';
    else if (cp >= 0xd800 && cp <= 0xdfff) out += ch;
    else if (cp < 0x10000) out += '\uff58';
    else out += '\u{1d465}';
  }
  return out;
}

/** An object with these members, in this order; `__proto__` as a plain member, as JSON.parse makes it. */
function object(entries: [string, unknown][]): Obj {
  const out: Obj = {};
  // Assignment is the fast way; only `__proto__` would set the prototype instead of a member.
  for (const [k, v] of entries) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
}

/** Any value with every string in it made filler (object keys kept), at any depth (REQ-3 lets a member nest as deep as JSON can). */
function scrubValue(v: unknown): unknown {
  if (typeof v === 'string') return filler(v);
  if (typeof v !== 'object' || v === null) return v;
  return mapJson(v, (x) => (typeof x === 'string' ? filler(x) : x));
}

const TIER_SOURCES = Object.keys(SOURCE_TO_TIER).sort(compareCodePoints);

const utf16Order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether the renamed ids stand in the same order as the originals, by code points and by UTF-16 code units. */
function keepsOrders(ids: string[], map: Map<string, string>): boolean {
  return [compareCodePoints, utf16Order].every((cmp) => {
    const renamed = [...ids].sort(cmp).map((id) => map.get(id)!);
    return renamed.every((x, i) => i === 0 || cmp(renamed[i - 1]!, x) < 0);
  });
}

/**
 * Opaque ids in the same order. Usually `b0`, `b1`, ... numbered in
 * code-point order (NUM-4), the width fixed so string order is number order.
 * When UTF-16 order differs from code-point order on the request's ids
 * (U+E000..U+FFFF or a lone surrogate against an astral character), an
 * implementation that sorts by UTF-16 must still be caught on the copy: then
 * each character is replaced instead, by its rank within its class, which
 * keeps both orders at the cost of keeping each id's length and which of its
 * characters are equal (and, should lone surrogates make that not enough, the
 * astral characters themselves).
 */
function idMap(ids: Iterable<string>): Map<string, string> {
  const distinct = [...new Set(ids)].filter((id) => id !== '').sort(compareCodePoints);
  const width = String(Math.max(0, distinct.length - 1)).length;
  const numbered = new Map(distinct.map((id, i) => [id, `b${String(i).padStart(width, '0')}`]));
  if (keepsOrders(distinct, numbered)) return numbered;
  const ranked = byCharacterRank(distinct, true);
  return keepsOrders(distinct, ranked) ? ranked : byCharacterRank(distinct, false);
}

/** `0-9A-Za-z`, then on from U+0100: increasing code points below the surrogates. */
const LOW_TARGETS = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'].map((c) => c.codePointAt(0)!);
const lowTarget = (k: number): number => (k < LOW_TARGETS.length ? LOW_TARGETS[k]! : 0x100 + k - LOW_TARGETS.length);

/** Each character by its rank within its class: below the surrogates, U+E000..U+FFFF, astral (or kept); lone surrogates kept. */
function byCharacterRank(ids: string[], astral: boolean): Map<string, string> {
  const used = [...new Set(ids.flatMap((id) => [...id].map((c) => c.codePointAt(0)!)))].sort((a, b) => a - b);
  const rank = new Map<number, number>();
  const counts = { low: 0, high: 0, astral: 0 };
  for (const cp of used) {
    if (cp < 0xd800) rank.set(cp, lowTarget(counts.low++));
    else if (cp <= 0xdfff) rank.set(cp, cp);
    else if (cp <= 0xffff) rank.set(cp, 0xe000 + counts.high++);
    else rank.set(cp, astral ? 0x10000 + counts.astral++ : cp);
  }
  return new Map(ids.map((id) => [id, String.fromCodePoint(...[...id].map((c) => rank.get(c.codePointAt(0)!)!))]));
}

/**
 * The shortest run of letters `p` such that `p` followed by any `width`
 * digits sorts strictly between `lo` and `hi` (either may be absent).
 */
function gapPrefix(lo: string | undefined, hi: string | undefined, width: number): string {
  const fits = (p: string): boolean =>
    (lo === undefined || compareCodePoints(lo, p + '0'.repeat(width)) < 0) && (hi === undefined || compareCodePoints(p + '9'.repeat(width), hi) < 0);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const a of letters) if (fits(a)) return a;
  for (const a of letters) for (const b of letters) if (fits(a + b)) return a + b;
  // The tier names are fixed; some two-letter prefix fits between any two of them.
  throw new Error(`no source name fits between ${String(lo)} and ${String(hi)}`);
}

/** Tier sources to themselves; every other source into its gap between tier sources, in order. */
function sourceMap(sources: Iterable<string>): Map<string, string> {
  const map = new Map<string, string>();
  const gaps = new Map<number, string[]>();
  for (const s of new Set(sources)) {
    if (s === '') continue;
    if (Object.hasOwn(SOURCE_TO_TIER, s)) {
      map.set(s, s);
      continue;
    }
    const g = TIER_SOURCES.filter((t) => compareCodePoints(t, s) < 0).length;
    const list = gaps.get(g);
    if (list) list.push(s);
    else gaps.set(g, [s]);
  }
  for (const [g, list] of gaps) {
    list.sort(compareCodePoints);
    const width = String(list.length - 1).length;
    const prefix = gapPrefix(TIER_SOURCES[g - 1], TIER_SOURCES[g], width);
    list.forEach((s, i) => {
      map.set(s, prefix + String(i).padStart(width, '0'));
    });
  }
  return map;
}

const strings = (xs: unknown): string[] => (Array.isArray(xs) ? xs.filter((x): x is string => typeof x === 'string') : []);

export function scrubRequest(request: unknown): Scrubbed {
  if (!isObj(request)) return { request: scrubValue(request), ids: new Map(), sources: new Map() };
  const blocks = Array.isArray(request.blocks) ? request.blocks : [];
  const constraints = isObj(request.constraints) ? request.constraints : undefined;
  const ids = idMap([
    ...blocks.map((b) => (isObj(b) ? b.block_id : undefined)).filter((x): x is string => typeof x === 'string'),
    ...strings(constraints?.must_include),
    ...strings(constraints?.exclude),
  ]);
  const sources = sourceMap(blocks.map((b) => (isObj(b) ? b.source : undefined)).filter((x): x is string => typeof x === 'string'));
  const renamed = (map: Map<string, string>, v: unknown): unknown => (typeof v === 'string' && map.has(v) ? map.get(v) : scrubValue(v));
  const kept = (allowed: ReadonlySet<string>, v: unknown): unknown => (typeof v === 'string' && allowed.has(v) ? v : scrubValue(v));

  const scrubBlock = (b: unknown): unknown => {
    if (!isObj(b)) return scrubValue(b);
    return object(
      Object.entries(b).map(([k, v]) => [
        k,
        k === 'block_id' ? renamed(ids, v) : k === 'source' ? renamed(sources, v) : k === 'status' ? kept(STATUSES, v) : scrubValue(v),
      ]),
    );
  };
  const scrubConstraints = (c: Obj): Obj =>
    object(
      Object.entries(c).map(([k, v]) => [k, (k === 'must_include' || k === 'exclude') && Array.isArray(v) ? v.map((x) => renamed(ids, x)) : scrubValue(v)]),
    );

  const out = object(
    Object.entries(request).map(([k, v]) => [
      k,
      k === 'blocks' && Array.isArray(v)
        ? v.map(scrubBlock)
        : k === 'constraints' && isObj(v)
          ? scrubConstraints(v)
          : k === 'profile'
            ? kept(PROFILES, v)
            : scrubValue(v),
    ]),
  );
  return { request: out, ids, sources };
}
