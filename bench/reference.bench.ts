/**
 * How fast the reference assembles 1e3 .. 1e6 random blocks (profile `tiered`,
 * every capability), against a floor program measured in the same run: the
 * work no assembler can skip (count the code points of every content, sort
 * every ranking key once, join the included texts). Numbers are printed only.
 *
 * Goals (from the issue): 1e5 blocks within 1.5x of the floor; 1e6 blocks in
 * under 0.56 s (25x faster than the Python original's 14 s on this machine).
 *
 *   node --import tsx --expose-gc bench/reference.bench.ts [maxBlocks]
 */
import { assemble, estimateTokens, isErrorAnswer } from '../reference/index.js';
import type { Block, Request } from '../reference/index.js';

/** mulberry32: small, fast and seeded, so every run sees the same blocks. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCES = [
  'memory', 'tactics', 'coverage', 'tool_results', 'episodes', 'session_summary', 'knowledge', 'waf_info',
  'scratchpad', 'Memory', 'notes_\u00e9t\u00e9',
];
const ASCII_WORDS = ['the', 'door', 'was', 'open', 'login', 'form', 'reflects', 'input', 'cookie', 'session', 'token', 'scan', 'port', '443'];
const OTHER_WORDS = ['caf\u00e9', '\u4e2d\u6587', '\uff5e\u6ce2', '\u{1F600}', '\u{1F44D}ok', '\u00fcber', '\u0434\u0430'];
const NOW = 1_700_000_000;

/**
 * Contents are slices of two long texts (one ASCII, one mixed with astral
 * characters), cut at code-point boundaries: building 1e6 fresh strings of
 * 20..400 code points one character at a time would take longer than the
 * assembly being measured.
 */
function corpus(rand: () => number, otherShare: number, codePoints: number): { text: string; starts: Int32Array } {
  const parts: string[] = [];
  const starts = new Int32Array(codePoints + 1);
  let units = 0;
  let cps = 0;
  while (cps < codePoints) {
    const pool = rand() < otherShare ? OTHER_WORDS : ASCII_WORDS;
    const w = pool[Math.floor(rand() * pool.length)]!;
    for (const ch of w + ' ') {
      if (cps >= codePoints) break;
      starts[cps++] = units;
      units += ch.length;
      parts.push(ch);
    }
  }
  starts[cps] = units;
  return { text: parts.join(''), starts };
}

/** A flat copy of a built-up string, as JSON.parse would hand it to an assembler. */
const flat = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

function makeRequest(n: number, seed: number): Request {
  const rand = prng(seed);
  const ascii = corpus(rand, 0, 1 << 20);
  const mixed = corpus(rand, 0.15, 1 << 20);
  const blocks: Block[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const len = 20 + Math.floor(rand() * 381);
    const useMixed = rand() < 0.3;
    const c = useMixed ? mixed : ascii;
    const from = Math.floor(rand() * ((1 << 20) - len));
    const content = c.text.slice(c.starts[from], c.starts[from + len]);
    const r = rand();
    const block: Block = {
      // Ids are unique; a few carry astral or BMP-high characters so the code-point order matters.
      block_id: flat(`b-${Math.floor(rand() * 1e9).toString(36)}-${i}${r < 0.01 ? '\u{1F600}' : r < 0.02 ? '\uff5e' : ''}`),
      source: SOURCES[Math.floor(rand() * SOURCES.length)]!,
      content,
      priority: Math.floor(rand() * 20) / 2, // 20 distinct values: many ties
      created_at: NOW - Math.floor(rand() * 86400 * 30),
      ttl_seconds: rand() < 0.05 ? 60 : 0, // about 5% expired
    };
    blocks[i] = block;
  }
  // Roughly 40% of the blocks fit: a block costs about 52 tokens on average.
  return { now: NOW, budget: n * 20, blocks };
}

/** The floor: work every correct assembler does at least once. */
function floor(req: Request): number {
  const blocks = req.blocks;
  const n = blocks.length;
  const cost = new Float64Array(n);
  // The reference's own estimate: its code-point count is the fastest we know, so the floor is no slower than it must be.
  for (let i = 0; i < n; i++) cost[i] = estimateTokens(blocks[i]!.content);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => {
    const x = blocks[a]!;
    const y = blocks[b]!;
    if (x.priority !== y.priority) return x.priority > y.priority ? -1 : 1;
    return x.block_id < y.block_id ? -1 : x.block_id > y.block_id ? 1 : 0;
  });
  const texts: string[] = [];
  let left = req.budget;
  for (const i of order) {
    if (cost[i]! > left) continue;
    left -= cost[i]!;
    const b = blocks[i]!;
    texts.push('[' + b.source + ' \u00b7 ' + b.block_id + ']\n' + b.content);
  }
  return texts.join('\n\n').length;
}

const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => {});

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median times of `a` and `b`, run alternately so both see the same machine load. */
function timePair(a: () => unknown, b: () => unknown, reps: number): [number, number] {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < reps; i++) {
    for (const [fn, out] of [[a, ta], [b, tb]] as const) {
      gc();
      const t0 = performance.now();
      fn();
      out.push(performance.now() - t0);
    }
  }
  return [median(ta), median(tb)];
}

const max = Number(process.argv[2] ?? 1e6);
const sizes = [1e3, 1e4, 1e5, 1e6].filter((n) => n <= max);
const rows: string[][] = [['blocks', 'assemble median', 'blocks/s', 'floor median', 'ratio', 'reps', 'included']];
for (const n of sizes) {
  const req = makeRequest(n, 20261129 + n);
  const reps = n <= 1e4 ? 21 : n <= 1e5 ? 11 : 3;
  // Untimed runs to warm up the JIT (more at small sizes, where compilation would dominate) and to check the answer.
  const warm = assemble(req);
  if (isErrorAnswer(warm)) throw new Error(`bench request rejected: ${warm.error.message}`);
  for (let i = Math.max(1, 3e4 / n); i > 0; i--) {
    assemble(req);
    floor(req);
  }
  const [a, f] = timePair(() => assemble(req), () => floor(req), reps);
  rows.push([
    n.toExponential(0),
    `${a.toFixed(n >= 1e5 ? 0 : 2)} ms`,
    Math.round((n / a) * 1000).toLocaleString('en-US'),
    `${f.toFixed(n >= 1e5 ? 0 : 2)} ms`,
    `${(a / f).toFixed(2)}x`,
    String(reps),
    String(warm.included.length),
  ]);
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((cell, c) => cell.padStart(widths[c]!)).join('  '));
if (max >= 1e6) console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
