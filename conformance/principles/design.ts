/**
 * A declared design (SPEC section 18, DES-1 to DES-3) made into the functions
 * the design-agnostic level measures and reads answers with: the cost of a
 * block under the implementation's own estimator, the render it declares, and
 * whether it reports what it dropped. An absent member is the
 * specification's: NUM-2's estimate, REN-2's header, REN-3's separator and
 * empty context, omissions reported.
 */
import { codePointLength, HEADER_SEPARATOR, SPEC_RENDER } from '../../reference/index.js';
import type { DeclaredDesign, DeclaredEstimator, EncodingName, Manifest } from '../../protocol/types.js';
import { loadEncoding } from '../encodings.js';

export interface Design {
  /** The estimator in words, for messages ("ceil(code_points / 4), at least 0, + 5 per block"). */
  estimator: string;
  /** A block's cost: its content under the declared estimator, with the per-block overhead. */
  cost(content: string): number;
  /** The header and footer around block `index` (1-based, its place in `included`). */
  header(block: { source: string; block_id: string }, index: number): string;
  footer(block: { source: string; block_id: string }, index: number): string;
  separator: string;
  empty: string;
  omissionsReported: boolean;
  /** Whether twins of equal code points, UTF-16 units, UTF-8 bytes and word breaks cost the same (false for a tokenizer). */
  twinsCostAlike: boolean;
}

export const SPEC_HEADER = '[{source}' + HEADER_SEPARATOR + '{block_id}]\n';
export const SPEC_SEPARATOR = SPEC_RENDER.separator;

const utf8 = new TextEncoder();

const UNITS: Record<'code_points' | 'utf16' | 'utf8_bytes' | 'words', (s: string) => number> = {
  code_points: codePointLength,
  utf16: (s) => s.length,
  utf8_bytes: (s) => utf8.encode(s).length,
  words: (s) => s.match(/\S+/gu)?.length ?? 0,
};

function fill(template: string, block: { source: string; block_id: string }, index: number): string {
  if (!template.includes('{')) return template;
  return template.replace(/\{(source|block_id|index)\}/g, (_, name: string) =>
    name === 'source' ? block.source : name === 'block_id' ? block.block_id : String(index),
  );
}

function unitEstimator(e: Extract<DeclaredEstimator, { unit: string }>): { cost: (s: string) => number; words: string } {
  const per = e.per_token ?? 4;
  const round = e.rounding === 'ceil' ? Math.ceil : Math.floor;
  const min = e.min ?? 1;
  const overhead = e.overhead ?? 0;
  const units = UNITS[e.unit];
  const cost = (s: string): number => Math.max(min, round(units(s) / per)) + overhead;
  return { cost, words: `${e.rounding ?? 'floor'}(${e.unit} / ${per}), at least ${min}${overhead ? `, + ${overhead} per block` : ''}` };
}

/** The design the manifest declares, with the tokenizer it names already loaded. */
export async function prepareDesign(manifest: Pick<Manifest, 'design'>): Promise<Design> {
  const e = manifest.design?.estimator;
  const encoder = e && 'tokenizer' in e ? await loadEncoding(e.tokenizer) : undefined;
  return designOf(manifest.design, encoder);
}

/** The design from its declaration; a tokenizer estimator needs its encoder (prepareDesign loads it). */
export function designOf(declared: DeclaredDesign | undefined, encoder?: (s: string) => number): Design {
  const e: DeclaredEstimator = declared?.estimator ?? { unit: 'code_points' };
  let cost: (s: string) => number;
  let estimator: string;
  if ('tokenizer' in e) {
    if (!encoder) throw new Error(`the ${e.tokenizer} tokenizer is not loaded: prepare the design first`);
    const overhead = e.overhead ?? 0;
    cost = (s) => encoder(s) + overhead;
    estimator = `${e.tokenizer as EncodingName} tokens${overhead ? ` + ${overhead} per block` : ''}`;
  } else {
    const u = unitEstimator(e);
    cost = u.cost;
    estimator = u.words;
  }
  const r = declared?.render ?? {};
  const header = r.header ?? SPEC_HEADER;
  const footer = r.footer ?? '';
  return {
    estimator,
    cost,
    header: (b, i) => fill(header, b, i),
    footer: (b, i) => fill(footer, b, i),
    separator: r.separator ?? SPEC_SEPARATOR,
    empty: r.empty ?? '',
    omissionsReported: declared?.omissions !== 'not_reported',
    twinsCostAlike: !('tokenizer' in e),
  };
}

/** What a declared design cannot mean, each naming its member (DES-4); the schema has said the rest. */
export function designProblems(manifest: Manifest): string[] {
  const out: string[] = [];
  if (manifest.design === undefined) return out;
  if (!manifest.profiles.includes('any')) out.push('design: a declared design is read at the any level only (DES-4): add "any" to profiles or drop the member');
  const r = manifest.design.render;
  if (r?.separator === '' && (r.header ?? SPEC_HEADER) === '' && (r.footer ?? '') === '') {
    out.push('design.render: with no header, footer or separator, blocks cannot be told apart in the context (ANY-10)');
  }
  return out;
}
