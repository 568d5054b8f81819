import { MAX_BUDGET, END_OF_DATED_SECONDS, MIN_DATED_SECONDS } from './constants.js';
import { PROFILES } from './types.js';
import type { Block, Constraints, Problem, Profile, Request, SegmentReason, Status } from './types.js';

/**
 * SPEC VAL-*: every problem of a request, each with the JSON Pointer of the
 * member at fault. Never recurses into members it does not know, so NaN,
 * Infinity, lone surrogates, huge numbers and deep nesting are all just values
 * here. It throws only when reading the value throws (a hostile getter or a
 * revoked Proxy); `assemble` answers that as invalid_request.
 */

const STATUSES: readonly string[] = ['active', 'disputed', 'superseded', 'stale'];

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
 * request of a million blocks must not pay for a million pointers.
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

  finite(obj: Obj, key: string, required: boolean): number | undefined {
    const v = obj[key];
    if (typeof v === 'number' && v - v === 0) return v; // finite: NaN and ±Infinity give NaN
    if (v === undefined) {
      if (required) this.add(key, `required member "${key}" is missing`);
    } else this.add(key, `"${key}" must be a finite number, got ${describeValue(v)}`);
    return undefined;
  }

  bool(obj: Obj, key: string): void {
    const v = obj[key];
    if (v !== undefined && typeof v !== 'boolean') this.add(key, `"${key}" must be a boolean, got ${describeValue(v)}`);
  }

  nonEmptyString(obj: Obj, key: string): string | undefined {
    const v = obj[key];
    if (typeof v === 'string' && v.length > 0) return v;
    if (v === undefined) this.add(key, `required member "${key}" is missing`);
    else if (typeof v !== 'string') this.add(key, `"${key}" must be a string, got ${describeValue(v)}`);
    else this.add(key, `"${key}" must not be empty`);
    return undefined;
  }

  stringList(obj: Obj, key: string): void {
    const v = obj[key];
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

function checkBlock(c: Checker, blocks: readonly unknown[], i: number, profile: Profile | undefined, seen: Set<string>): void {
  const b = blocks[i];
  c.within(i);
  if (!isObject(b)) {
    c.add(undefined, `each block must be an object, got ${describeValue(b)}`);
    return;
  }
  const id = c.nonEmptyString(b, 'block_id');
  if (id !== undefined) {
    const size = seen.size;
    if (seen.add(id).size === size) c.add('block_id', `duplicate block_id (first used by /blocks/${firstUse(blocks, id)})`);
  }
  c.nonEmptyString(b, 'source');
  const content = b.content;
  if (typeof content !== 'string') {
    if (content === undefined) c.add('content', 'required member "content" is missing');
    else c.add('content', `"content" must be a string, got ${describeValue(content)}`);
  }
  c.finite(b, 'priority', true);
  const created = c.finite(b, 'created_at', false);
  if (profile === 'ranked' && created !== undefined && (created < MIN_DATED_SECONDS || created >= END_OF_DATED_SECONDS)) {
    c.add('created_at', '"created_at" must fall between 0001-01-01 and 9999-12-31 UTC in the ranked profile');
  }
  const ttl = c.finite(b, 'ttl_seconds', false);
  if (ttl !== undefined && ttl < 0) c.add('ttl_seconds', `"ttl_seconds" must be >= 0, got ${ttl}`);
  c.bool(b, 'pinned');
  const status = b.status;
  if (status !== undefined && (typeof status !== 'string' || !STATUSES.includes(status))) {
    c.add('status', `"status" must be one of ${STATUSES.join(', ')}, got ${typeof status === 'string' ? JSON.stringify(status) : describeValue(status)}`);
  }
  const conf = c.finite(b, 'confidence', false);
  if (conf !== undefined && (conf < 0 || conf > 1)) c.add('confidence', `"confidence" must be within [0, 1], got ${conf}`);
  if (profile === 'ranked') {
    // The packer has no notion of these: accepting them silently would drop a rule the caller relies on.
    if (b.pinned === true) c.add('pinned', 'pinned blocks are not supported by the ranked profile');
    if (status === 'disputed' || status === 'superseded' || status === 'stale') {
      c.add('status', 'lifecycle status is not supported by the ranked profile');
    }
  }
}

function checkConstraints(c: Checker, k: unknown, profile: Profile | undefined): void {
  if (k === undefined) return;
  c.within('/constraints');
  if (!isObject(k)) {
    c.add(undefined, `"constraints" must be an object, got ${describeValue(k)}`);
    return;
  }
  if (profile === 'ranked') c.add(undefined, 'constraints are not supported by the ranked profile');
  c.stringList(k, 'must_include');
  c.stringList(k, 'exclude');
  const ms = k.max_segments;
  if (ms !== undefined && ms !== null && !(typeof ms === 'number' && Number.isInteger(ms) && ms >= 1)) {
    c.add('max_segments', `"max_segments" must be null or an integer >= 1, got ${describeValue(ms)}`);
  }
  for (const key of ['include_disputed', 'include_superseded', 'prefer_recency', 'prefer_high_confidence']) c.bool(k, key);
}

export function validateRequest(req: unknown): Problem[] {
  const c = new Checker();
  if (!isObject(req)) {
    c.add(undefined, `the request must be a JSON object, got ${describeValue(req)}`);
    return c.problems;
  }
  let profile: Profile | undefined = 'tiered';
  if (req.profile !== undefined) {
    if (typeof req.profile === 'string' && (PROFILES as readonly string[]).includes(req.profile)) {
      profile = req.profile as Profile;
    } else {
      c.add('profile', `"profile" must be one of ${PROFILES.join(', ')}, got ${typeof req.profile === 'string' ? JSON.stringify(req.profile) : describeValue(req.profile)}`);
      profile = undefined;
    }
  }
  c.finite(req, 'now', true);
  const budget = req.budget;
  if (budget === undefined) c.add('budget', 'required member "budget" is missing');
  else if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 0 || budget > MAX_BUDGET) {
    c.add('budget', `"budget" must be an integer from 0 to 2^53-1, got ${describeValue(budget)}`);
  }
  const blocks = req.blocks;
  if (blocks === undefined) c.add('blocks', 'required member "blocks" is missing');
  else if (!Array.isArray(blocks)) c.add('blocks', `"blocks" must be an array, got ${describeValue(blocks)}`);
  else {
    // A set, not a map to the first index: one hash operation per id, the index is found again only for a duplicate.
    const seen = new Set<string>();
    // An index loop, not forEach: a hole in a sparse array is a missing block, not nothing.
    for (let i = 0; i < blocks.length; i++) checkBlock(c, blocks, i, profile, seen);
  }
  checkConstraints(c, req.constraints, profile);
  return c.problems;
}

/** A request that passed validation, with every default filled in. */
export interface NormalBlock {
  index: number;
  block_id: string;
  source: string;
  content: string;
  priority: number;
  created_at: number;
  dated: boolean;
  ttl_seconds: number;
  pinned: boolean;
  status: Status;
  confidence: number;
  /** Scratch, filled by the tiered pass on live blocks: the cost, whether `<` orders the id (order.ts), the admission reason. */
  cost: number;
  lowId: boolean;
  reason: SegmentReason | null;
}

export interface NormalRequest {
  profile: Profile;
  now: number;
  budget: number;
  blocks: NormalBlock[];
  constraints: Required<Constraints>;
}

/** Only call on a request for which validateRequest returned no problem. */
export function normalize(req: Request): NormalRequest {
  const k = req.constraints ?? {};
  return {
    profile: req.profile ?? 'tiered',
    now: req.now,
    budget: req.budget,
    blocks: req.blocks.map((b: Block, index: number): NormalBlock => ({
      index,
      block_id: b.block_id,
      source: b.source,
      content: b.content,
      priority: b.priority,
      created_at: b.created_at ?? 0,
      dated: b.created_at !== undefined,
      ttl_seconds: b.ttl_seconds ?? 0,
      pinned: b.pinned ?? false,
      status: b.status ?? 'active',
      confidence: b.confidence ?? 1,
      cost: 0,
      lowId: false,
      reason: null,
    })),
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
