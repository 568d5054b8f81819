/**
 * Recorded-looking traffic for the replay benchmark: `count` valid requests of
 * the shape agents send (a few to a dozen blocks from the tier sources and a
 * few others, contents of tens to hundreds of characters with some accents
 * and emoji, priorities that tie, some expiring blocks, budgets that bind),
 * from a seeded generator, written as gzip JSON lines.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { prng } from './prng.js';

/** The sources of the recorded-looking blocks, shared with the large-request bench. */
export const SOURCES = ['memory', 'tactics', 'coverage', 'tool_results', 'episodes', 'session_summary', 'knowledge', 'waf_info', 'notes', 'crm'];
const WORDS = [
  'the',
  'user',
  'prefers',
  'metric',
  'units',
  'café',
  'deploys',
  'on',
  'friday',
  'never',
  'ticket',
  'résumé',
  '👍',
  'escalate',
  'after',
  'two',
  'retries',
  'budget',
  'approved',
  '東京',
];

/** How large the requests of one traffic are: blocks per request, words per content, and budget, each from 0 or 1 up to the figure. */
export interface TrafficShape {
  blocks: number;
  words: number;
  budget: number;
}

/** The bench's own traffic: a few to a dozen short blocks. */
export const AGENT_TRAFFIC: TrafficShape = { blocks: 12, words: 40, budget: 600 };
/** Long recalled contents: up to 40 blocks of up to 240 words, some 17 KB a request. */
export const LONG_TRAFFIC: TrafficShape = { blocks: 40, words: 240, budget: 6000 };

export function recordedRequest(r: () => number, n: number, shape: TrafficShape = AGENT_TRAFFIC): Record<string, unknown> {
  const now = 1_700_000_000 + n;
  const count = 1 + Math.floor(r() * shape.blocks);
  const blocks = [];
  for (let i = 0; i < count; i++) {
    const words = Math.floor(r() * shape.words);
    let content = '';
    for (let w = 0; w < words; w++) content += (w ? ' ' : '') + WORDS[Math.floor(r() * WORDS.length)];
    const block: Record<string, unknown> = {
      block_id: `m-${n % 1000}-${i}`,
      source: SOURCES[Math.floor(r() * SOURCES.length)],
      content,
      priority: Math.floor(r() * 6) / 2,
    };
    if (r() < 0.3) {
      block.created_at = now - Math.floor(r() * 200);
      block.ttl_seconds = Math.floor(r() * 200);
    }
    blocks.push(block);
  }
  return { now, budget: Math.floor(r() * shape.budget), blocks };
}

/** Writes `count` requests to `file` (gzip JSON lines); resolves with the number of bytes before compression. */
export async function writeRecorded(file: string, count: number, seed = 1, shape: TrafficShape = AGENT_TRAFFIC): Promise<number> {
  const r = prng(seed);
  let bytes = 0;
  async function* lines(): AsyncGenerator<string> {
    let batch = '';
    for (let n = 0; n < count; n++) {
      batch += JSON.stringify(recordedRequest(r, n, shape)) + '\n';
      if (batch.length > 1 << 20) {
        bytes += Buffer.byteLength(batch);
        yield batch;
        batch = '';
      }
    }
    bytes += Buffer.byteLength(batch);
    yield batch;
  }
  await pipeline(Readable.from(lines()), createGzip({ level: 1 }), createWriteStream(file));
  return bytes;
}
