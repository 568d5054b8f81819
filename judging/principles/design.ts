/**
 * A declared design (SPEC section 18, DES-1 to DES-3) made into the functions
 * the design-agnostic level measures and reads answers with: the cost of a
 * block under the implementation's own estimator, the render it declares, and
 * whether it reports what it dropped. An absent member is the
 * specification's: NUM-2's estimate, REN-2's header, REN-3's separator and
 * empty context, omissions reported.
 */
import { codePointLength, HEADER_SEPARATOR, isExpired, SPEC_RENDER } from '../../reference/index.js';
import { BLOCK_MEMBERS } from '../../protocol/assembly.js';
import type {
  DeclaredContextOrder,
  DeclaredCut,
  DeclaredDesign,
  DeclaredEstimator,
  DeclaredFill,
  DeclaredMarker,
  DeclaredRefusal,
  DeclaredTemplate,
  EncodingName,
  Manifest,
} from '../../protocol/types.js';
import { loadEncoding, loadTokenCut, type TokenCut } from '../../vocabulary/encodings.js';
import { type CompiledTemplate, compileTemplate, provenanceScope, type Render, type RenderBlock } from '../../protocol/render-template.js';

export interface Design {
  /** The estimator in words, for messages ("ceil(code_points / 4), at least 0, + 5 per block"). */
  estimator: string;
  /** A content's cost alone under the declared estimator, with the per-block overhead (no context overhead, no joining, no render). */
  cost(content: string): number;
  /** What a selection costs (ANY-2): its blocks, in `included`'s order, counted as the estimator declares (DES-1: their contents, rendered blocks or rendered context). */
  costOf(blocks: readonly RenderBlock[]): number;
  /** Each block's own share of a selection's cost where the estimator counts block by block (`undefined` for a count over the joined or rendered whole). */
  costsOf(blocks: readonly RenderBlock[]): number[] | undefined;
  /** The render of each block of a selection, in order, its 1-based place in it the index; an empty content the design writes as nothing has none (DES-2 `empty_content`). */
  pieces(blocks: readonly RenderBlock[]): string[];
  /** The header and footer around block `index` (1-based, its place in `included`). */
  header: Render;
  footer: Render;
  separator: string;
  empty: string;
  omissionsReported: boolean;
  /** Whether twins of equal code points, UTF-16 units, UTF-8 bytes and word breaks cost the same (false for a tokenizer). */
  twinsCostAlike: boolean;
  /** Whether the render names the block of some content (`{block_id}` or `{index}` in a header or footer it can take): else ANY-10 is not judged. */
  namesBlocks: boolean;
  /** Whether the header or footer this block takes names it: provenance is judged for such a block (ANY-10), block by block. */
  namesBlock(b: RenderBlock): boolean;
  /** The members beyond section 2 the requests carry (DES-5), each with its values. */
  members: Readonly<Record<string, readonly string[]>>;
  /** What of a valid request the design refuses (DES-6): its error answer is skipped, not failed. */
  refuses: readonly DeclaredRefusal[];
  /** How it fills the budget (DES-7), when declared: the selection is then computed (ANY-14). */
  fill?: DeclaredFill | 'own';
  /** The order of `included` (DES-8), when declared (ANY-15). */
  contextOrder?: DeclaredContextOrder;
  /** The member that links blocks kept or dropped together (DES-9), when declared (ANY-16). */
  groups?: string;
  /** The omission marker (DES-10), when declared. */
  marker?: DeclaredMarker;
  /** A cut by design (DES-12), when declared. */
  cut?: DeclaredCut;
  /** For a cut at token boundaries: whether a kept text is the first or last tokens of a content (the tokenizer loaded by prepareDesign). */
  tokenCut?: TokenCut;
  /** How an empty content is written (DES-2): as any block, its header alone, or nothing at all. */
  emptyContent: 'block' | 'header' | 'nothing';
  /** Whether a block is expired at `now` under the declared boundary (DES-11; EXP-1 when undeclared). */
  expired(now: number, b: Expiring): boolean;
  /** The boundary in words, for messages: the condition under which a block is expired. */
  expiry: 'exclusive' | 'inclusive';
}

/** What expiry reads of a block. */
export interface Expiring {
  created_at?: number;
  ttl_seconds?: number;
}

/** DES-11 over EXP-1: a block with a ttl is expired after created_at + ttl_seconds, or already at that instant when the design says so. */
export function expiredUnder(expiry: 'exclusive' | 'inclusive'): (now: number, b: Expiring) => boolean {
  if (expiry === 'exclusive') return (now, b) => isExpired(now, b.created_at ?? 0, b.ttl_seconds ?? 0);
  return (now, b) => (b.ttl_seconds ?? 0) > 0 && now >= (b.created_at ?? 0) + (b.ttl_seconds ?? 0);
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

/** The count of one text under the declared unit or tokenizer, before any overhead. */
function counter(e: DeclaredEstimator, encoder: ((s: string) => number) | undefined): { count: (s: string) => number; words: string } {
  if ('tokenizer' in e) {
    if (!encoder) throw new Error(`the ${e.tokenizer} tokenizer is not loaded: prepare the design first`);
    return { count: encoder, words: `${e.tokenizer as EncodingName} tokens` };
  }
  const per = e.per_token ?? 4;
  const round = e.rounding === 'ceil' ? Math.ceil : Math.floor;
  const min = e.min ?? 1;
  const units = UNITS[e.unit];
  return { count: (s) => Math.max(min, round(units(s) / per)), words: `${e.rounding ?? 'floor'}(${e.unit} / ${per}), at least ${min}` };
}

/** Whether a selection's cost is within the budget: declared fractions (DES-1) summed in another order may differ in the last bits, and a part in a billion is no overrun. */
export const withinBudget = (cost: number, budget: number): boolean => cost - budget <= 1e-9 * Math.max(1, budget);

/** The design the manifest declares, with the tokenizer it names already loaded. */
export async function prepareDesign(manifest: Pick<Manifest, 'design'> & { readonly profiles?: readonly string[] }): Promise<Design> {
  const e = manifest.design?.estimator;
  const encoder = e && 'tokenizer' in e ? await loadEncoding(e.tokenizer) : undefined;
  const design = manifestDesign(manifest, encoder);
  // A cut at token boundaries reads the declared tokenizer's tokens (designProblems refuses it without one).
  if (e && 'tokenizer' in e && manifest.design?.cut?.at === 'token') return { ...design, tokenCut: await loadTokenCut(e.tokenizer) };
  return design;
}

/**
 * The design a manifest is judged with at the any level: its declaration, and a fill of its own
 * for an exact profile, whose tiers (or ranked's rules) split the budget their own way (DES-7).
 */
export function manifestDesign(manifest: Pick<Manifest, 'design'> & { readonly profiles?: readonly string[] }, encoder?: (s: string) => number): Design {
  const d = designOf(manifest.design, encoder);
  const exact = (manifest.profiles ?? []).some((p) => p === 'tiered' || p === 'ranked');
  return exact && d.fill === undefined ? { ...d, fill: 'own' } : d;
}

function compiled(t: DeclaredTemplate, members: readonly string[], path: string): CompiledTemplate {
  const c = compileTemplate(t, members, path);
  if (Array.isArray(c)) throw new Error(c.join('; '));
  return c;
}

/** The design from its declaration; a tokenizer estimator needs its encoder (prepareDesign loads it). */
export function designOf(declared: DeclaredDesign | undefined, encoder?: (s: string) => number): Design {
  const e: DeclaredEstimator = declared?.estimator ?? { unit: 'code_points' };
  const { count, words } = counter(e, encoder);
  const overhead = e.overhead ?? 0;
  const once = e.context_overhead ?? 0;
  const join = e.join;
  const counts = e.counts ?? 'content';
  const members = declared?.members ?? {};
  const names = Object.keys(members);
  const r = declared?.render ?? {};
  const header = compiled(r.header ?? SPEC_HEADER, names, 'design.render.header');
  const footer = compiled(r.footer ?? '', names, 'design.render.footer');
  const separator = r.separator ?? SPEC_SEPARATOR;
  const emptyContent = r.empty_content ?? 'block';
  const piece = (b: RenderBlock, index: number): string | undefined => {
    if (b.content !== '' || emptyContent === 'block') return header.render(b, index) + b.content + footer.render(b, index);
    return emptyContent === 'header' ? header.render(b, index) : undefined;
  };
  const pieces = (blocks: readonly RenderBlock[]): string[] => blocks.flatMap((b, i) => piece(b, i + 1) ?? []);
  const cost = (s: string): number => count(s) + overhead;
  // What each block adds by itself, where the count is block by block: its content, its rendered block, or that and the separator.
  const costsOf = (blocks: readonly RenderBlock[]): number[] | undefined => {
    if (join !== undefined || counts === 'context') return undefined;
    if (counts === 'content') return blocks.map((b) => cost(b.content));
    return blocks.map((b, i) => {
      const p = piece(b, i + 1);
      return (p === undefined ? 0 : count(counts === 'block_and_separator' ? p + separator : p)) + overhead;
    });
  };
  const costOf = (blocks: readonly RenderBlock[]): number => {
    if (blocks.length === 0) return 0;
    const each = costsOf(blocks);
    if (each !== undefined) return each.reduce((n, c) => n + c, once);
    const text = counts === 'context' ? pieces(blocks).join(separator) : blocks.map((b) => b.content).join(join ?? '');
    return count(text) + overhead * blocks.length + once;
  };
  const over: Readonly<Record<typeof counts, string>> = {
    content: join !== undefined ? ` of the contents joined by ${JSON.stringify(join)}` : '',
    block: ' of each rendered block (header, content, footer)',
    block_and_separator: ' of each rendered block and the separator after it',
    context: ' of the rendered context as one text',
  };
  const estimator = words + over[counts] + (overhead ? `, + ${overhead} per block` : '') + (once ? `, + ${once} per context` : '');
  return {
    estimator,
    cost,
    costOf,
    costsOf,
    pieces,
    header: header.render,
    footer: footer.render,
    separator,
    empty: r.empty ?? '',
    omissionsReported: declared?.omissions !== 'not_reported',
    twinsCostAlike: !('tokenizer' in e),
    namesBlocks: provenanceScope(declared).scope !== 'none',
    namesBlock: (b) => header.names(b) || footer.names(b),
    members,
    refuses: declared?.refuses ?? [],
    ...(declared?.fill ? { fill: declared.fill } : {}),
    ...(declared?.context_order ? { contextOrder: declared.context_order } : {}),
    ...(declared?.groups ? { groups: declared.groups } : {}),
    ...(declared?.marker ? { marker: declared.marker } : {}),
    ...(declared?.cut ? { cut: declared.cut } : {}),
    emptyContent,
    expired: expiredUnder(declared?.expiry ?? 'exclusive'),
    expiry: declared?.expiry ?? 'exclusive',
  };
}

/** Section 2's block members: a declared member (DES-5) cannot be one of them. */
const SPEC_MEMBERS: ReadonlySet<string> = new Set(BLOCK_MEMBERS);

/** What a declared design cannot mean, each naming its member (DES-4, DES-2, DES-5); the schema has said the rest. */
export function designProblems(manifest: Manifest): string[] {
  const out: string[] = [];
  if (manifest.design === undefined) return out;
  if (!manifest.profiles.includes('any')) out.push('design: a declared design is read at the any level only (DES-4): add "any" to profiles or drop the member');
  const members = Object.keys(manifest.design.members ?? {});
  for (const m of members) {
    if (SPEC_MEMBERS.has(m)) out.push(`design.members.${m}: a member of section 2 is not declared again (DES-5); name your own member otherwise`);
  }
  const g = manifest.design.groups;
  if (g !== undefined && SPEC_MEMBERS.has(g))
    out.push(`design.groups: ${JSON.stringify(g)} is a member of section 2; groups are linked by a member of their own (DES-9)`);
  const r = manifest.design.render;
  for (const part of ['header', 'footer'] as const) {
    const t = r?.[part];
    if (t === undefined) continue;
    const c = compileTemplate(t, members, `design.render.${part}`);
    if (Array.isArray(c)) out.push(...c);
  }
  const e = manifest.design.estimator;
  if (manifest.design.cut?.at === 'token' && !(e && 'tokenizer' in e))
    out.push('design.cut.at: a cut at token boundaries needs a tokenizer estimator (design.estimator.tokenizer), whose tokens it reads');
  if (e?.join !== undefined && (e.counts ?? 'content') !== 'content')
    out.push(`design.estimator.join: the contents are joined only when the estimator counts them ("counts": "content"), not ${JSON.stringify(e.counts)}`);
  if (r?.separator === '' && (r.header ?? SPEC_HEADER) === '' && (r.footer ?? '') === '') {
    out.push('design.render: with no header, footer or separator, blocks cannot be told apart in the context (ANY-10)');
  }
  return out;
}
