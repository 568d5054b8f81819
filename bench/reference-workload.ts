/**
 * The request shape of the reference benchmarks: contents of 20..400
 * code points, 10% of them with non-ASCII text (Latin-1, CJK, astral), 9 sources
 * (the 8 of TIER-1 and one other), 25% of the blocks with a ttl (a quarter of
 * those expired), budget N * 10. Ids arrive sorted or shuffled; priorities take
 * 10 values (many ties) or are all distinct (none). Seeded: every run sees the
 * same blocks. Also the floor program every ratio is measured against.
 */
import { estimateTokens } from '../reference/index.js';
import type { Block, Request } from '../reference/index.js';
import { prng } from './prng.js';

export const NOW = 1_700_000_000;
const SOURCES = ['memory', 'tactics', 'coverage', 'tool_results', 'episodes', 'session_summary', 'knowledge', 'waf_info', 'scratchpad'];
const ASCII_WORDS = ['the', 'door', 'was', 'open', 'login', 'form', 'reflects', 'input', 'cookie', 'session', 'token', 'scan', 'port', '443'];
const OTHER_WORDS = ['caf\u00e9', '\u4e2d\u6587', '\uff5e\u6ce2', '\u{1F600}', '\u{1F44D}ok', '\u00fcber', '\u0434\u0430'];

/** A long text and the UTF-16 offset of each of its code points, to cut contents at code-point boundaries. */
interface Corpus {
  text: string;
  starts: Int32Array;
}

function corpus(rand: () => number, otherShare: number, codePoints: number): Corpus {
  const parts: string[] = [];
  const starts = new Int32Array(codePoints + 1);
  let units = 0;
  let cps = 0;
  while (cps < codePoints) {
    const pool = rand() < otherShare ? OTHER_WORDS : ASCII_WORDS;
    for (const ch of pool[Math.floor(rand() * pool.length)]! + ' ') {
      if (cps >= codePoints) break;
      starts[cps++] = units;
      units += ch.length;
      parts.push(ch);
    }
  }
  starts[cps] = units;
  return { text: parts.join(''), starts };
}

/** A flat copy of a string, as JSON.parse would hand it to an assembler (not a slice of the corpus). */
const flat = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

export type IdOrder = 'sorted' | 'shuffled';
export type Priorities = 'ties' | 'distinct';

export interface Shape {
  ids: IdOrder;
  priorities: Priorities;
}

export const SHAPES: readonly Shape[] = [
  { ids: 'sorted', priorities: 'ties' },
  { ids: 'shuffled', priorities: 'ties' },
  { ids: 'sorted', priorities: 'distinct' },
  { ids: 'shuffled', priorities: 'distinct' },
];

export const shapeName = (s: Shape): string => `${s.ids}, ${s.priorities === 'ties' ? 'many ties' : 'no ties'}`;

/**
 * One request of N blocks, allocated in input order as JSON.parse would
 * allocate them: with shuffled ids only the ids are out of order, not memory.
 * Contents, sources and ttls come from their own stream, so every shape of one
 * size has the same blocks apart from ids and priorities.
 */
export function makeRequest(n: number, shape: Shape, seed = 20261201): Request {
  const rand = prng(seed + n);
  const ascii = corpus(rand, 0, 1 << 16);
  const mixed = corpus(rand, 0.3, 1 << 16);
  const width = String(n - 1).length;
  const order = prng(seed ^ 0x5eed);
  const idOf = Array.from({ length: n }, (_, i) => i);
  if (shape.ids === 'shuffled') shuffle(idOf, order);
  // Distinct priorities: a random permutation of n evenly spaced non-integers.
  const rank = Array.from({ length: n }, (_, i) => i);
  if (shape.priorities === 'distinct') shuffle(rank, order);
  const blocks: Block[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const len = 20 + Math.floor(rand() * 381);
    const c = rand() < 0.1 ? mixed : ascii;
    const from = Math.floor(rand() * (c.starts.length - 1 - len));
    const tie = Math.floor(rand() * 10);
    const block: Block = {
      block_id: flat(`blk-${String(idOf[i]!).padStart(width, '0')}`),
      source: flat(SOURCES[Math.floor(rand() * SOURCES.length)]!),
      content: flat(c.text.slice(c.starts[from], c.starts[from + len])),
      priority: shape.priorities === 'ties' ? tie : (rank[i]! + 0.5) / 4,
      created_at: NOW - Math.floor(rand() * 86400 * 30),
    };
    // A ttl up to 60 days against an age up to 30: about a quarter of these blocks have expired.
    if (rand() < 0.25) block.ttl_seconds = 1 + Math.floor(rand() * 86400 * 60);
    blocks[i] = block;
  }
  return { now: NOW, budget: n * 10, blocks };
}

function shuffle<T>(xs: T[], rand: () => number): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = t;
  }
}

/** Every priority of the workload is a multiple of 1/8 (ties: integers; distinct: (rank + 0.5) / 4). */
const PRIORITY_STEPS = 8;
const ID_PREFIX = 'blk-'.length;

/**
 * The workload's ids are `blk-` and a zero-padded number: read as that
 * number, they are in code-point order (NUM-4). Cheaper than any sort of
 * strings, and exact for this workload only, as the floor is.
 */
function idNumber(id: string): number {
  let x = 0;
  for (let i = ID_PREFIX; i < id.length; i++) x = x * 10 + (id.charCodeAt(i) - 48);
  return x;
}

/**
 * The floor: the work no exact assembler can skip, done as cheaply as
 * JavaScript allows on this workload. Count the code points of every content
 * (NUM-1); one typed-array sort (in the engine's own code) of N numeric keys,
 * each the priority and the id packed into one exact integer, which the
 * workload's priorities and ids allow: TIER-3's order; in that order take
 * each block that fits what is left of the budget; then a second such sort,
 * of the blocks taken, by (source, -priority, block_id): REN-1's order, the
 * order every exact assembler must render in, which reads the contents in an
 * order unrelated to where they lie in memory when ids arrive shuffled; and
 * one join of the segments in that order. It checks nothing and has no tiers,
 * pool, omissions or segments list.
 */
export function floor(req: Request): number {
  const blocks = req.blocks;
  const n = blocks.length;
  const cost = new Float64Array(n);
  for (let i = 0; i < n; i++) cost[i] = estimateTokens(blocks[i]!.content);
  let top = 0;
  for (let i = 0; i < n; i++) top = Math.max(top, blocks[i]!.priority * PRIORITY_STEPS);
  // The ids are a permutation of 0..n-1: `at` finds a block from its id's number.
  const rank = new Float64Array(n);
  const at = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const id = idNumber(blocks[i]!.block_id);
    at[id] = i;
    rank[i] = (top - blocks[i]!.priority * PRIORITY_STEPS) * n + id;
  }
  const keys = rank.slice().sort();
  const taken: number[] = [];
  let left = req.budget;
  for (let j = 0; j < n; j++) {
    const i = at[keys[j]! % n]!;
    if (cost[i]! > left) continue;
    left -= cost[i]!;
    taken.push(i);
  }
  // REN-1: sources by code points (the workload's are ASCII, where that is `<`), then the rank key.
  const sources = [...new Set(taken.map((i) => blocks[i]!.source))].sort();
  const sourceRank = new Map(sources.map((s, r) => [s, r]));
  const span = (top + 1) * n;
  const order = new Float64Array(taken.length);
  for (let j = 0; j < taken.length; j++) {
    const i = taken[j]!;
    order[j] = sourceRank.get(blocks[i]!.source)! * span + rank[i]!;
  }
  order.sort();
  const texts = new Array<string>(taken.length);
  for (let j = 0; j < order.length; j++) {
    const i = at[(order[j]! % span) % n]!;
    const b = blocks[i]!;
    texts[j] = '[' + b.source + ' \u00b7 ' + b.block_id + ']\n' + b.content;
  }
  return texts.join('\n\n').length;
}

/**
 * The floor the bench used before: TIER-3's order with ties broken by input
 * position, and the taken blocks joined in that order, which follows memory
 * within each priority and is not REN-1's. Timed beside the floor above for
 * the before/after comparison only.
 */
export function inputOrderFloor(req: Request): number {
  const blocks = req.blocks;
  const n = blocks.length;
  const cost = new Float64Array(n);
  for (let i = 0; i < n; i++) cost[i] = estimateTokens(blocks[i]!.content);
  let top = 0;
  for (let i = 0; i < n; i++) top = Math.max(top, blocks[i]!.priority * PRIORITY_STEPS);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (top - blocks[i]!.priority * PRIORITY_STEPS) * n + i;
  keys.sort();
  const texts: string[] = [];
  let left = req.budget;
  for (let j = 0; j < n; j++) {
    const i = keys[j]! % n;
    if (cost[i]! > left) continue;
    left -= cost[i]!;
    const b = blocks[i]!;
    texts.push('[' + b.source + ' \u00b7 ' + b.block_id + ']\n' + b.content);
  }
  return texts.join('\n\n').length;
}
