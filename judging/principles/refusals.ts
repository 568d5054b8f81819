/**
 * Valid requests a declared design refuses (SPEC DES-6), told by what they
 * hold: a budget of 0, an empty content, a lone surrogate (which a Rust
 * `String` cannot hold), or the text of a tokenizer's special token (which
 * some tokenizers throw on). A refusal the design declares is skipped with
 * the reason; any other error answer to a valid request fails ANY-13.
 */
import type { DeclaredRefusal } from '../../protocol/types.js';

/** Special-token text of the tokenizers designs use: what recalled web text holds and some encoders refuse. */
export const SPECIAL_TOKEN = /<\|(?:endoftext|im_start|im_end|im_sep|endofprompt|fim_prefix|fim_middle|fim_suffix)\|>/;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const WORDS: Readonly<Record<DeclaredRefusal, string>> = {
  budget_zero: 'a budget of 0',
  empty_content: 'a block with an empty content',
  lone_surrogate: 'a lone surrogate in a content, id or source',
  special_tokens: "a tokenizer's special-token text in a content",
};

type Readable = { budget?: unknown; blocks?: unknown };
type ReadableBlock = { content?: unknown; block_id?: unknown; source?: unknown };

/** What of the refusable the request holds. */
export function refusable(request: unknown): DeclaredRefusal[] {
  const r = (typeof request === 'object' && request !== null ? request : {}) as Readable;
  const blocks = (Array.isArray(r.blocks) ? r.blocks : []) as ReadableBlock[];
  const texts = (b: ReadableBlock): string[] => [b.content, b.block_id, b.source].filter((x): x is string => typeof x === 'string');
  const out: DeclaredRefusal[] = [];
  if (r.budget === 0) out.push('budget_zero');
  if (blocks.some((b) => b?.content === '')) out.push('empty_content');
  if (blocks.some((b) => b && texts(b).some((t) => LONE_SURROGATE.test(t)))) out.push('lone_surrogate');
  if (blocks.some((b) => typeof b?.content === 'string' && SPECIAL_TOKEN.test(b.content))) out.push('special_tokens');
  return out;
}

/** Why a refusal of `request` is the design's (the skip's reason), or undefined when the design does not declare what it holds. */
export function declaredRefusal(request: unknown, refuses: readonly DeclaredRefusal[]): string | undefined {
  if (refuses.length === 0) return undefined;
  const held = refusable(request).filter((k) => refuses.includes(k));
  if (held.length === 0) return undefined;
  return `refused as the design declares (design.refuses: ${held.join(', ')}): the request holds ${held.map((k) => WORDS[k]).join(' and ')}`;
}
