/**
 * A cut by design (SPEC DES-12): a renderer that shortens a block to fit on
 * purpose, keeping its head or its tail at a declared boundary, with an
 * optional marker where the rest was. Such a cut is the design's, not a
 * broken block: it is held to be a true part of the content at that boundary,
 * charged what it writes against the budget, and made only where the whole
 * block does not fit. Anything else a cut does is ANY-1's, named.
 */
import type { DeclaredCut } from '../../protocol/types.js';
import type { TokenCut } from '../../vocabulary/encodings.js';
import type { Finding, PrincipleBlock } from './finding.js';
import { quote } from './finding.js';

/** What the reading found of a cut block: its first and last characters kept, and what stands between. */
export interface Shown {
  first: number;
  last: number;
  between: string;
}

const WHITE = /\s/u;

/** A few characters either side of place `at` of a content, the cut marked with `|`. */
const around = (c: string, at: number): string =>
  quote(`${at > 12 ? '…' : ''}${c.slice(Math.max(0, at - 12), at)}|${c.slice(at, at + 12)}${at + 12 < c.length ? '…' : ''}`);

/**
 * The text a declared cut writes for block `b`, or the finding that says how the cut is not the
 * declared one: the other end kept, a marker other than the declared, a cut inside a word where
 * the design cuts at white space.
 */
export function declaredCut(b: PrincipleBlock, p: Shown, cut: DeclaredCut, tokenCut?: TokenCut): { written: string } | Finding {
  const c = b.content;
  const marker = cut.marker ?? '';
  const head = cut.keep === 'head';
  // What stands in the content's place, read exactly: a kept end of any length and the marker (the reading counts ends of 8 or more).
  const shown = c.slice(0, p.first) + p.between + c.slice(c.length - p.last);
  const part = head
    ? shown.endsWith(marker)
      ? shown.slice(0, shown.length - marker.length)
      : undefined
    : shown.startsWith(marker)
      ? shown.slice(marker.length)
      : undefined;
  const exact = part !== undefined && part.length > 0 && part.length < c.length && (head ? c.startsWith(part) : c.endsWith(part));
  const kept = exact ? part.length : head ? p.first : p.last;
  const other = exact ? 0 : head ? p.last : p.first;
  const between = exact ? marker : p.between;
  const fail = (why: string): Finding => ({
    id: 'ANY-1',
    message: `block ${quote(b.block_id)} is cut, but not as the design declares (${cutWords(cut)}): ${why}`,
    expected: cutWords(cut),
    actual: p,
  });
  if (kept === 0 || other > 0) return fail(`it keeps ${other > 0 && kept === 0 ? `its ${head ? 'tail' : 'head'}` : 'both ends'} of ${c.length} characters`);
  if (between !== marker) return fail(`${quote(between)} stands where the rest was, where the declared marker is ${quote(marker)}`);
  if (cut.at === 'whitespace') {
    // The kept head ends before white space (the white space and what follows left out); a kept tail begins after it.
    const at = head ? kept : c.length - kept;
    const boundary = head ? WHITE.test(c[at] ?? '') : WHITE.test(c[at - 1] ?? '');
    if (!boundary) return fail(`it is cut at character ${at} of ${c.length}, inside a word (${around(c, at)}), where the design cuts at white space`);
  }
  const keptText = head ? c.slice(0, kept) : c.slice(c.length - kept);
  if (cut.at === 'token' && !tokenCut) throw new Error('a cut at token boundaries reads the tokenizer: prepare the design first (prepareDesign)');
  if (cut.at === 'token' && !tokenCut!(c, keptText, cut.keep))
    return fail(
      `its kept ${cut.keep} of ${kept} characters (${around(c, head ? kept : c.length - kept)}) is not the text of whole tokens of the declared tokenizer`,
    );
  return { written: head ? keptText + marker : marker + keptText };
}

/** A declared cut in words: "the head kept at white space, marked "…"". */
const AT_WORDS: Readonly<Record<DeclaredCut['at'], string>> = { whitespace: 'white space', token: 'a token boundary', character: 'any character' };

export function cutWords(cut: DeclaredCut): string {
  return `the ${cut.keep} kept, cut at ${AT_WORDS[cut.at]}${cut.marker ? `, marked ${quote(cut.marker)}` : ', unmarked'}`;
}
