import { MAX_BUDGET, END_OF_DATED_SECONDS, MIN_DATED_SECONDS } from './constants.js';
import { isExpired } from './design.js';
import { bytes, counts, doubles, LARGE } from './block-arrays.js';
import type { Bytes, Counts, Numbers } from './block-arrays.js';
import { IdSketch, identityOrder, uniqueIdOrder } from './id-order.js';
import { BLOCK_STATUSES, PROFILES } from '../protocol/assembly.js';
import type { Block, BlockStatus, Constraints, Problem, Profile, Request } from '../protocol/assembly.js';
import type { ContentLengths } from './lengths.js';
import { codePointLength, compareCodePoints } from './unicode.js';

/**
 * SPEC VAL-*: every problem of a request, each with the JSON Pointer of the
 * member at fault. Never recurses into members it does not know, so NaN,
 * Infinity, lone surrogates, huge numbers and deep nesting are all just values
 * here. It throws only when reading the value throws (a hostile getter or a
 * revoked Proxy); `assemble` answers that as invalid_request.
 */

/** The statuses of VAL-5; a block's status is kept as its index here. */
export const ACTIVE = 0;
export const DISPUTED = 1;
export const SUPERSEDED = 2;
export const STALE = 3;

type Obj = Record<string, unknown>;

const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

function describeValue(x: unknown): string {
  if (x === null) return 'null';
  if (x === undefined) return 'nothing (a hole or undefined)';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'number') return Number.isNaN(x) ? 'NaN' : String(x);
  if (typeof x === 'string') return 'a string';
  return `a ${typeof x}`;
}

/** Escape a member name for a JSON Pointer (RFC 6901). */
export function pointer(...parts: (string | number)[]): string {
  return parts.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/**
 * Collects problems. Paths are built only when a problem is found: a valid
 * request of a million blocks must not pay for a million pointers. Each check
 * takes the member's value, read once by name at the call site.
 */
class Checker {
  readonly problems: Problem[] = [];
  /** Where the members being checked live: a block index, or a fixed prefix ('' or '/constraints'). */
  private at: number | string = '';

  within(at: number | string): void {
    this.at = at;
  }

  /** `item` is the index inside an array member (`/constraints/exclude/3`). */
  add(key: string | undefined, message: string, item?: number): void {
    let path = typeof this.at === 'number' ? pointer('blocks', this.at) : this.at;
    if (key !== undefined) path += pointer(key);
    if (item !== undefined) path += pointer(item);
    this.problems.push({ path, message });
  }

  finite(v: unknown, key: string, required: boolean): number | undefined {
    if (typeof v === 'number' && v - v === 0) return v; // finite: NaN and ±Infinity give NaN
    if (v === undefined) {
      if (required) this.add(key, `required member "${key}" is missing`);
    } else this.add(key, `"${key}" must be a finite number, got ${describeValue(v)}`);
    return undefined;
  }

  bool(v: unknown, key: string): void {
    if (v !== undefined && typeof v !== 'boolean') this.add(key, `"${key}" must be a boolean, got ${describeValue(v)}`);
  }

  nonEmptyString(v: unknown, key: string): string | undefined {
    if (typeof v === 'string' && v.length > 0) return v;
    if (v === undefined) this.add(key, `required member "${key}" is missing`);
    else if (typeof v !== 'string') this.add(key, `"${key}" must be a string, got ${describeValue(v)}`);
    else this.add(key, `"${key}" must not be empty`);
    return undefined;
  }

  stringList(v: unknown, key: string): void {
    if (v === undefined) return;
    if (!Array.isArray(v)) {
      this.add(key, `"${key}" must be an array of block ids, got ${describeValue(v)}`);
      return;
    }
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (typeof item !== 'string' || item.length === 0) {
        this.add(key, `"${key}" items must be non-empty strings, got ${describeValue(item)}`, i);
      }
    }
  }
}

/** Index of the first block with this id: looked up only for the error message. */
function firstUse(blocks: readonly unknown[], id: string): number {
  return blocks.findIndex((b) => isObject(b) && b.block_id === id);
}

/**
 * SPEC VAL-3 .. VAL-5 and VAL-9 for block `i`, and what assembling needs of it
 * into the columns (garbage where the block has a problem: the request is then
 * refused). With `seen`, a repeated id is reported here, as the block's first
 * problem; without it the caller finds repeats by other means.
 */
function checkBlock(c: Checker, blocks: readonly unknown[], i: number, profile: Profile | undefined, seen: Set<string> | null, into: Columns): void {
  const b = blocks[i];
  c.within(i);
  if (!isObject(b)) {
    c.add(undefined, `each block must be an object, got ${describeValue(b)}`);
    return;
  }
  const id = c.nonEmptyString(b.block_id, 'block_id');
  if (id !== undefined && seen !== null) {
    const size = seen.size;
    if (seen.add(id).size === size) c.add('block_id', `duplicate block_id (first used by /blocks/${firstUse(blocks, id)})`);
  }
  const source = c.nonEmptyString(b.source, 'source');
  const content = b.content;
  if (typeof content !== 'string') {
    if (content === undefined) c.add('content', 'required member "content" is missing');
    else c.add('content', `"content" must be a string, got ${describeValue(content)}`);
  }
  const priority = c.finite(b.priority, 'priority', true);
  const created = c.finite(b.created_at, 'created_at', false);
  if (profile === 'ranked' && created !== undefined && (created < MIN_DATED_SECONDS || created >= END_OF_DATED_SECONDS)) {
    c.add('created_at', '"created_at" must fall between 0001-01-01 and 9999-12-31 UTC in the ranked profile');
  }
  const ttl = c.finite(b.ttl_seconds, 'ttl_seconds', false);
  if (ttl !== undefined && ttl < 0) c.add('ttl_seconds', `"ttl_seconds" must be >= 0, got ${ttl}`);
  const pinned = b.pinned;
  c.bool(pinned, 'pinned');
  const status = b.status;
  const statusIndex = status === undefined ? ACTIVE : BLOCK_STATUSES.indexOf(status as BlockStatus);
  if (statusIndex < 0) {
    c.add('status', `"status" must be one of ${BLOCK_STATUSES.join(', ')}, got ${typeof status === 'string' ? JSON.stringify(status) : describeValue(status)}`);
  }
  const conf = c.finite(b.confidence, 'confidence', false);
  if (conf !== undefined && (conf < 0 || conf > 1)) c.add('confidence', `"confidence" must be within [0, 1], got ${conf}`);
  if (profile === 'ranked') {
    // The packer has no notion of these: accepting them silently would drop a rule the caller relies on.
    if (pinned === true) c.add('pinned', 'pinned blocks are not supported by the ranked profile');
    if (statusIndex > 0) c.add('status', 'lifecycle status is not supported by the ranked profile');
  }
  // REQ-4: an absent optional member is its default.
  into.ids[i] = id ?? '';
  into.source[i] = source === undefined ? 0 : into.sourceNumber(source);
  into.contents[i] = typeof content === 'string' ? content : '';
  into.codePoints[i] = typeof content === 'string' ? into.codePointsOf(i, content) : 0;
  into.priority[i] = priority ?? 0;
  into.createdAt[i] = created ?? 0;
  into.expired[i] = isExpired(into.now, created ?? 0, ttl ?? 0) ? 1 : 0;
  into.pinned[i] = pinned === true ? 1 : 0;
  into.status[i] = statusIndex;
}

function checkConstraints(c: Checker, k: unknown, profile: Profile | undefined): void {
  if (k === undefined) return;
  c.within('/constraints');
  if (!isObject(k)) {
    c.add(undefined, `"constraints" must be an object, got ${describeValue(k)}`);
    return;
  }
  if (profile === 'ranked') c.add(undefined, 'constraints are not supported by the ranked profile');
  c.stringList(k.must_include, 'must_include');
  c.stringList(k.exclude, 'exclude');
  const ms = k.max_segments;
  if (ms !== undefined && ms !== null && !(typeof ms === 'number' && Number.isInteger(ms) && ms >= 1)) {
    c.add('max_segments', `"max_segments" must be null or an integer >= 1, got ${describeValue(ms)}`);
  }
  c.bool(k.include_disputed, 'include_disputed');
  c.bool(k.include_superseded, 'include_superseded');
  c.bool(k.prefer_recency, 'prefer_recency');
  c.bool(k.prefer_high_confidence, 'prefer_high_confidence');
}

/**
 * What assembling reads of each block, by block index, filled while validation
 * reads the block: each member is read once, and a large request is walked once.
 */
export class Columns {
  readonly ids: string[];
  readonly contents: string[];
  /** Index into `sources`. */
  readonly source: Counts;
  /** The distinct sources, in order of first use. */
  readonly sources: string[] = [];
  /** Length of the content in code points (NUM-1). */
  readonly codePoints: Counts;
  readonly priority: Numbers;
  readonly createdAt: Numbers;
  /** 1 for a block expired at the request's `now` (EXP-1), which validation reads before the blocks. */
  readonly expired: Bytes;
  /** 1 for a pinned block. */
  readonly pinned: Bytes;
  /** Index into BLOCK_STATUSES. */
  readonly status: Bytes;
  private readonly sourceNumbers = new Map<string, number>();

  constructor(
    n: number,
    readonly now = 0,
    /** Lengths the caller has counted already, and keeps for its next reading of the request. */
    private readonly lengths: ContentLengths | null = null,
  ) {
    this.ids = new Array<string>(n);
    this.contents = new Array<string>(n);
    this.source = counts(n, 'source');
    this.codePoints = counts(n, 'codePoints');
    this.priority = doubles(n, 'priority');
    this.createdAt = doubles(n, 'createdAt');
    this.expired = bytes(n, 'expired');
    this.pinned = bytes(n, 'pinned');
    this.status = bytes(n, 'status');
  }

  /** NUM-1. */
  codePointsOf(i: number, content: string): number {
    return this.lengths === null ? codePointLength(content) : this.lengths.of(i, content);
  }

  sourceNumber(source: string): number {
    // A hash, even for a handful of sources: equal sources parsed from JSON are distinct strings, and a look
    // along the list compares their characters at every step where the hash compares them once.
    let s = this.sourceNumbers.get(source);
    if (s === undefined) {
      s = this.sources.length;
      this.sources.push(source);
      this.sourceNumbers.set(source, s);
    }
    return s;
  }
}

/** What one pass over the request learned. */
interface Pass {
  problems: Problem[];
  columns: Columns;
  /** Each id comes after the one before (for a large request by code points, NUM-4): then no two are equal. */
  ascending: boolean;
  /** For a large request whose ids are not ascending: what sorting them needs, gathered while they were read. */
  sketch: IdSketch | null;
}

function check(req: unknown, seen: Set<string> | null, lengths: ContentLengths | null): Pass {
  const c = new Checker();
  if (!isObject(req)) {
    c.add(undefined, `the request must be a JSON object, got ${describeValue(req)}`);
    return { problems: c.problems, columns: new Columns(0), ascending: true, sketch: null };
  }
  let profile: Profile | undefined = 'tiered';
  if (req.profile !== undefined) {
    if (typeof req.profile === 'string' && (PROFILES as readonly string[]).includes(req.profile)) {
      profile = req.profile as Profile;
    } else {
      c.add(
        'profile',
        `"profile" must be one of ${PROFILES.join(', ')}, got ${typeof req.profile === 'string' ? JSON.stringify(req.profile) : describeValue(req.profile)}`,
      );
      profile = undefined;
    }
  }
  const now = c.finite(req.now, 'now', true);
  const budget = req.budget;
  if (budget === undefined) c.add('budget', 'required member "budget" is missing');
  else if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 0 || budget > MAX_BUDGET) {
    c.add('budget', `"budget" must be an integer from 0 to 2^53-1, got ${describeValue(budget)}`);
  }
  const blocks = req.blocks;
  let columns = new Columns(0);
  let ascending = true;
  let sketch: IdSketch | null = null;
  if (blocks === undefined) c.add('blocks', 'required member "blocks" is missing');
  else if (!Array.isArray(blocks)) c.add('blocks', `"blocks" must be an array, got ${describeValue(blocks)}`);
  else {
    columns = new Columns(blocks.length, now, lengths);
    const ids = columns.ids;
    const large = blocks.length >= LARGE;
    // Any strict order proves the ids unique; a large request also keeps the order as its id order, so there it must be code points.
    const precedes = large ? (a: string, b: string): boolean => compareCodePoints(a, b) < 0 : (a: string, b: string): boolean => a < b;
    // An index loop, not forEach: a hole in a sparse array is a missing block, not nothing.
    for (let i = 0; i < blocks.length; i++) {
      checkBlock(c, blocks, i, profile, seen, columns);
      if (c.problems.length > 0) continue; // then every id so far is a string
      if (sketch !== null) sketch.add(ids[i]!);
      else if (ascending && i > 0 && !precedes(ids[i - 1]!, ids[i]!)) {
        ascending = false;
        if (large) {
          sketch = new IdSketch();
          for (let j = 0; j <= i; j++) sketch.add(ids[j]!);
        }
      }
    }
  }
  checkConstraints(c, req.constraints, profile);
  return { problems: c.problems, columns, ascending, sketch };
}

/**
 * Validate, and read what assembling needs. Unique ids (VAL-4) are found
 * without hashing a large request's ids: ids that arrive in code-point order
 * are unique, and otherwise a large request sorts them, which TIER-3 needs
 * anyway. A request with a problem is read a second time, with a set, to name
 * every repeated id in block order.
 */
export function readRequest(req: unknown, lengths: ContentLengths | null = null): { problems: Problem[]; request: NormalRequest | null } {
  const { problems, columns, ascending, sketch } = check(req, null, lengths);
  if (problems.length === 0) {
    const ids = columns.ids;
    const n = ids.length;
    let idOrder: Uint32Array | null = null;
    let unique: boolean;
    if (n >= LARGE) {
      idOrder = ascending ? identityOrder(n) : uniqueIdOrder(ids, sketch!);
      unique = idOrder !== null;
    } else unique = ascending || new Set(ids).size === n;
    if (unique) return { problems, request: normalize(req as Request, columns, idOrder) };
  }
  return { problems: check(req, new Set(), lengths).problems, request: null };
}

/**
 * A request that passed validation. The blocks are the caller's own objects,
 * not copies (a copy of a million blocks costs as much time and memory as
 * assembling them); what assembling reads of each is in the columns.
 */
export interface NormalRequest extends Omit<Columns, 'sourceNumber' | 'codePointsOf' | 'now'> {
  profile: Profile;
  now: number;
  budget: number;
  blocks: readonly Block[];
  /** For a request of LARGE blocks or more, the block indices in code-point order of their ids (NUM-4); else null. */
  idOrder: Uint32Array | null;
  constraints: Required<Constraints>;
}

/** SPEC REQ-4 for the members that are not in the columns. */
export const confidenceOf = (b: Block): number => b.confidence ?? 1;
/** In `ranked`, a block without `created_at` is undated (RANK-3). */
export const isDated = (b: Block): boolean => b.created_at !== undefined;

/** Only for a request that validation passed: the constraints with every default of CON-7 filled in. */
function normalize(req: Request, columns: Columns, idOrder: Uint32Array | null): NormalRequest {
  const k = req.constraints ?? {};
  const { ids, contents, source, sources, codePoints, priority, createdAt, expired, pinned, status } = columns;
  return {
    profile: req.profile ?? 'tiered',
    now: req.now,
    budget: req.budget,
    blocks: req.blocks,
    ids,
    contents,
    source,
    sources,
    codePoints,
    priority,
    createdAt,
    expired,
    pinned,
    status,
    idOrder,
    constraints: {
      must_include: k.must_include ?? [],
      exclude: k.exclude ?? [],
      max_segments: k.max_segments ?? null,
      include_disputed: k.include_disputed ?? true,
      include_superseded: k.include_superseded ?? false,
      prefer_recency: k.prefer_recency ?? false,
      prefer_high_confidence: k.prefer_high_confidence ?? false,
    },
  };
}
