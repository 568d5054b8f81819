/**
 * The real tokenizers the kit ships (gpt-tokenizer: the ranks come with the
 * package, nothing is downloaded), each loaded on its own when it is asked
 * for: reading one's ranks costs a few hundred milliseconds, and
 * `--estimator o200k_base` needs no other.
 */
import type { EncodingName } from '../protocol/types.js';

// Special-token text such as `<|endoftext|>` inside recalled content is data (REN-4): encode it as ordinary text.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** How many tokens a text is, by one encoding's `encode`. */
export const tokenCount =
  (encode: (s: string, o: typeof AS_TEXT) => unknown[]) =>
  (s: string): number =>
    encode(s, AS_TEXT).length;

/** How many tokens of this encoding a text is. */
export async function loadEncoding(name: EncodingName): Promise<(s: string) => number> {
  const { encode } = name === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  return tokenCount(encode);
}

/** Whether `kept` is the text of the first (`head`) or last (`tail`) tokens of `content` under an encoding: a cut at a token boundary (DES-12). */
export type TokenCut = (content: string, kept: string, keep: 'head' | 'tail') => boolean;

export async function loadTokenCut(name: EncodingName): Promise<TokenCut> {
  const { encode, decode } = name === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  return (content, kept, keep) => {
    const tokens = encode(content, AS_TEXT);
    // Near the kept text's own length in tokens: a prefix of a text may tokenize a token or two apart from the text's prefix.
    const near = encode(kept, AS_TEXT).length;
    for (let k = Math.max(1, near - 2); k <= Math.min(tokens.length - 1, near + 2); k++) {
      const piece = keep === 'head' ? tokens.slice(0, k) : tokens.slice(tokens.length - k);
      if (decode(piece) === kept) return true;
    }
    return false;
  };
}
